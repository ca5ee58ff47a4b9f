"""Checks that every target of Package.swift imports exactly the targets it lists as dependencies (run by
scripts/lint): SwiftPM lets a target import what one of its dependencies depends on, so a layer could reach past
its neighbour without a line in Package.swift saying so; and a dependency no file imports is a dead edge of the
graph that docs/architecture.md draws."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
manifest = (root / "Package.swift").read_text()
problems = []
targets = re.finditer(
    r'\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"(.*?)\)(?=,\s*\n\s*(?://[^\n]*\n\s*)*(?:\.|\]))',
    manifest, re.S)
for match in targets:
    kind, name, rest = match.groups()
    dependencies = set(re.findall(r'"([^"]+)"', (re.search(r'dependencies:\s*\[(.*?)\]', rest, re.S) or [None, ""])[1]))
    path = re.search(r'path:\s*"([^"]+)"', rest)
    folder = root / (path.group(1) if path else ("Tests/" if kind == "testTarget" else "Sources/") + name)
    imports = set()
    for source in folder.rglob("*.swift"):
        imports |= set(re.findall(r'^(?:@testable\s+)?import\s+(\w+)', source.read_text(), re.M))
    local = imports - {"Foundation", "Glibc", "Synchronization", "Dispatch", "Testing", "XCTest", "FoundationEssentials", "Darwin"}
    if local - dependencies:
        problems.append(f"{name} imports {sorted(local - dependencies)} without listing them in Package.swift")
    if dependencies - local:
        problems.append(f"{name} lists {sorted(dependencies - local)} in Package.swift but imports none of them")
for problem in problems:
    print(f"Package.swift: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
