"""Times `healthetl mcp` over raw stdio (run by scripts/benchmark-mcp): start-up, every tool, peak RSS.

    benchmark-mcp.py <healthetl> <database> <runs>
"""

import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time

executable, database, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

# Arguments from the database itself: its last year, its busiest workout.
db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
last = db.execute("SELECT max(label) FROM rollups WHERE period = 'day'").fetchone()[0]
first = db.execute("SELECT min(label) FROM rollups WHERE period = 'day'").fetchone()[0]
year_ago = db.execute("SELECT date(?, '-364 days')", (last,)).fetchone()[0]
month_ago = db.execute("SELECT date(?, '-30 days')", (last,)).fetchone()[0]
# The workout with the longest route (any workout in an export without routes).
workout = db.execute(
    "SELECT workout_id FROM workout_overview ORDER BY route_points DESC, workout_id LIMIT 1").fetchone()[0]
db.close()

calls = [
    ("overview", {}),
    ("list_metrics", {}),
    ("metric_series day, 1 year", {"metric": "Steps", "start": year_ago, "end": last, "period": "day"}),
    ("metric_series week HR, 1 year", {"metric": "HeartRate", "start": year_ago, "end": last, "period": "week"}),
    ("metric_series month, 10 years", {"metric": "StepCount", "start": first, "end": last, "period": "month"}),
    ("metric_series day, 10 years", {"metric": "Steps", "start": first, "end": last, "period": "day"}),
    ("metric_series year HR, 10 years", {"metric": "HeartRate", "start": first, "end": last, "period": "year"}),
    ("sleep_nights, 1 year", {"start": year_ago, "end": last}),
    ("workouts, 20", {}),
    ("workouts, 100", {"limit": 100}),
    ("workout_detail + 200-point route", {"id": workout, "route_points": 200}),
    ("samples HR, 100 rows", {"metric": "HeartRate", "start": month_ago, "end": last}),
    ("sql 1,000 rows of cumulative_samples", {"query": "SELECT * FROM cumulative_samples", "limit": 1000}),
    ("sql count(*) workouts", {"query": "SELECT count(*) FROM workouts"}),
    ("sql steps per month", {"query": "SELECT substr(date, 1, 7) AS month, sum(value) FROM daily_rollups "
                             "WHERE type = 'HKQuantityTypeIdentifierStepCount' AND statistic = 'sum' GROUP BY month"}),
    ("baseline 3 metrics, 1 month", {"metrics": ["RestingHeartRate", "HRV", "Steps"], "start": month_ago, "end": last}),
    ("baseline HR, 1 year", {"metrics": ["RestingHeartRate"], "start": year_ago, "end": last}),
    ("compare steps, 1 year vs 10 years", {"metric": "Steps", "first_start": first, "first_end": last,
                                           "second_start": year_ago, "second_end": last}),
    ("correlate steps and resting HR, 10 years, lag 1", {"x": "Steps", "y": "RestingHeartRate", "start": first,
                                                         "end": last, "lag_days": 1}),
    ("unusual, 10 years", {}),
]
names = {label: label.split(" ")[0].rstrip(",") for label, _ in calls}


def text_and_structured(result):
    """The bytes of an answer's text and of its structured content (compact JSON, UTF-8)."""
    text = "".join(block.get("text", "") for block in result.get("content", []))
    structured = result.get("structuredContent")
    serialized = json.dumps(structured, ensure_ascii=False, separators=(",", ":")) if structured is not None else ""
    return len(text.encode()), len(serialized.encode())


def answer_bytes(result):
    """What the server's answer budget counts (issue 43): the text and the structured content together."""
    return sum(text_and_structured(result))


class Server:
    def __init__(self):
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [executable, "mcp", "--db", database], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n"
        began = time.perf_counter()
        self.process.stdin.write(line.encode())
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        elapsed = time.perf_counter() - began
        message = json.loads(answer)
        if "error" in message or message.get("result", {}).get("isError"):
            raise SystemExit(f"{method} {params}: {answer[:300]}")
        self.last_result = message.get("result", {})
        return elapsed, answer_bytes(self.last_result)

    def peak_rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """The server's user + system CPU time: what a call costs, whatever else the machine runs."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        self.process.stdin.close()
        self.process.wait()


startups = []
for _ in range(runs):
    server = Server()
    server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                  "clientInfo": {"name": "bench", "version": "1"}})
    startups.append(time.perf_counter() - server.started)
    server.close()

server = Server()
server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "bench", "version": "1"}})
rows = []
for label, arguments in calls:
    params = {"name": names[label], "arguments": arguments}
    cold, size = server.request("tools/call", params)
    cpu_before = server.cpu_seconds()
    times = [server.request("tools/call", params)[0] for _ in range(runs)]
    cpu = (server.cpu_seconds() - cpu_before) / runs
    rows.append((label, cold, statistics.median(times), max(times), cpu, size))
peak = server.peak_rss_kib()
# Issue 43's table: the calls it measured, their text and structured content apart.
issue_calls = [
    ("metric_series StepCount, one year by day", {"metric": "StepCount", "start": year_ago, "end": last, "period": "day"}),
    ("metric_series StepCount, three years by day (two without data)",
     {"metric": "StepCount", "start": year_ago, "end": f"{int(last[:4]) + 2}{last[4:]}", "period": "day"}),
    ("sleep_nights, one year", {"start": year_ago, "end": last}),
    ("workouts, 100", {"limit": 100}),
    ("sql, 1,000 rows of cumulative_samples", {"query": "SELECT * FROM cumulative_samples", "limit": 1000}),
    ("list_metrics", {}),
]
sizes = []
for label, arguments in issue_calls:
    server.request("tools/call", {"name": label.split(" ")[0].rstrip(","), "arguments": arguments})
    sizes.append((label, *text_and_structured(server.last_result)))
server.close()

print(f"healthetl mcp on {os.path.basename(database)} ({os.path.getsize(database) / 1e9:.2f} GB, {first} to {last}), "
      f"{runs} calls each")
print(f"| what | first call | median | slowest | server CPU per call | answer bytes (text + structured) |")
print(f"|---|---:|---:|---:|---:|---:|")
print(f"| start-up (spawn → initialize answered) | | {statistics.median(startups) * 1000:.1f} ms | "
      f"{max(startups) * 1000:.1f} ms | | |")
for label, cold, median, slowest, cpu, size in rows:
    print(f"| {label} | {cold * 1000:.1f} ms | {median * 1000:.1f} ms | {slowest * 1000:.1f} ms | {cpu * 1000:.1f} ms "
          f"| {size:,} |")
print(f"| peak RSS (VmHWM) of the server after all calls | | {peak / 1024:.1f} MB | | | |")
print()
print("| call | text | structured | ≈ tokens |")
print("|---|---:|---:|---:|")
for label, text, structured in sizes:
    print(f"| `{label.split(' ')[0]}`{label[len(label.split(' ')[0]):]} | {text / 1000:.1f} KB | {structured / 1000:.1f} KB "
          f"| {round((text + structured) / 3, -2):,.0f} |")
