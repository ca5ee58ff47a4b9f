#!/usr/bin/env python3
"""Names the tests in a `swift test` log that started and never passed, failed or skipped (a hang's suspects).

Usage: scripts/unfinished-tests.py .build/test-output.txt
"""
import re
import sys

started, ended = [], set()
with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
    for line in log:
        # Swift Testing prints `◇ Test name() started.` and later `✔`/`✘`/`➜` `Test name() ...`.
        match = re.match(r"^(\S+) Test (\S+?\(.*?\)|\"[^\"]*\")", line)
        if not match:
            continue
        symbol, name = match.groups()
        if line.rstrip().endswith("started.") and symbol == "◇":
            started.append(name)
        elif symbol in ("✔", "✘", "➜", "􀙟"):
            ended.add(name)
unfinished = [name for name in dict.fromkeys(started) if name not in ended]
for name in unfinished:
    print("  " + name)
if not unfinished:
    print("  (none: the hang is outside a test, or the log is incomplete)")
