"""Checks docs/architecture.md's tables against Package.swift (run by scripts/lint), so the document cannot drift
from the manifest it describes: the table "What each may import" must list every library and executable target
with exactly its dependencies, the table of folders every library target, the table under "Tests" every test
target with exactly its dependencies, and the count of C system-library targets must be the manifest's."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
manifest = (root / "Package.swift").read_text()
document = (root / "docs/architecture.md").read_text()
problems = []

# name → (kind, dependencies), read as scripts/check-target-imports.py reads the manifest.
targets = {}
for match in re.finditer(
        r'\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(.*?)\)(?=,\s*\n\s*(?://[^\n]*\n\s*)*(?:\.|\]))',
        manifest, re.S):
    kind, name, rest = match.groups()
    dependencies = re.search(r'dependencies:\s*\[(.*?)\]', rest, re.S)
    path = re.search(r'path:\s*"([^"]+)"', rest)
    targets[name] = (kind, set(re.findall(r'"([^"]+)"', dependencies[1])) if dependencies else set(),
                     path.group(1) if path else None)

# The generator and the tests' support target live outside Sources/ (their own `path:`): not layers of the tool.
layers = {name for name, (kind, _, path) in targets.items() if kind in ("target", "executableTarget") and not path}
libraries = {name for name in layers if targets[name][0] == "target"}
test_targets = {name for name, (kind, _, _) in targets.items() if kind == "testTarget"}
system_libraries = [name for name, (kind, _, _) in targets.items() if kind == "systemLibrary"]


def table(header):
    """The rows of the table whose header line is `header`, as lists of cells."""
    lines = document.splitlines()
    if header not in lines:
        problems.append(f"no table headed '{header}'")
        return []
    rows = []
    for line in lines[lines.index(header) + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def names(cell):
    return re.findall(r'`([A-Za-z][A-Za-z0-9-]*)`', cell)


def compare_dependencies(rows, expected_targets, what):
    seen = set()
    for row in rows:
        for name in names(row[0]):
            seen.add(name)
            if name not in targets:
                problems.append(f"{what}: '{name}' is not a target of Package.swift")
                continue
            # Parentheses explain a dependency ("`CCrypto` (in SystemCrypto.swift only)"): not names of targets.
            listed = set(names(re.sub(r'\([^)]*\)', '', row[1])))
            if listed != targets[name][1]:
                missing = sorted(targets[name][1] - listed)
                extra = sorted(listed - targets[name][1])
                problems.append(f"{what}: '{name}' lists {sorted(listed)}; Package.swift has {sorted(targets[name][1])}"
                                + (f" (missing {missing})" if missing else "") + (f" (not a dependency: {extra})" if extra else ""))
    for name in sorted(expected_targets - seen):
        problems.append(f"{what}: '{name}' is missing")


compare_dependencies(table("| target | imports |"), layers, "the table of what each target may import")
owned = {name for row in table("| target | folder(s) | what it owns |") for name in names(row[0])}
for name in sorted(libraries - owned):
    problems.append(f"the table of targets and folders: '{name}' is missing")
for name in sorted(owned - libraries):
    problems.append(f"the table of targets and folders: '{name}' is not a library target of Package.swift")
compare_dependencies(table("| test target | imports | what it tests |"), test_targets, "the table of test targets")

count_words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
claimed = re.search(r'\b(\w+) C system-library targets', document)
if not claimed or claimed.group(1) != count_words[len(system_libraries)]:
    problems.append(f"the overview must say '{count_words[len(system_libraries)]} C system-library targets' "
                    f"(Package.swift: {', '.join(system_libraries)})")

for problem in problems:
    print(f"docs/architecture.md: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
