"""Asks healthetl mcp and two peers the same questions on one export (run by scripts/benchmark-mcp --peers).

    benchmark-mcp-peers.py <export.zip> <healthetl> <healthetl db> <apple-health-export-mcp venv> <its db>
                           <apple-health-mcp-server venv or ''> <its db>

Each server is started over stdio (initialize, then one tools/call per question, its default answer); an answer's
bytes are what a client hands on: its text content and its structuredContent (compact JSON, UTF-8), as healthetl's
answer budget counts them. The numbers are checked against the truth read from the export's XML by scripts/
accuracy.py's rules (steps: one source per stretch of time; sleep: the union of asleep stretches, by the day the
night ends), never against any tool. Prints a Markdown table for docs/mcp.md.
"""

import collections
import datetime
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402  (the truth's rules, shared with docs/accuracy.md)

export_zip, healthetl, healthetl_db, export_venv, export_db, server_venv, server_db = sys.argv[1:8]
ZONE = ZoneInfo(accuracy.HOME_ZONE)
SLEEP = "HKCategoryTypeIdentifierSleepAnalysis"


class ExportTruth(accuracy.Truth):
    """The steps, sleep and workouts of the export, read once (only these; the export may be large)."""

    def __init__(self, zip_path):
        archive = zipfile.ZipFile(zip_path)
        self.records, self.sleep, self.workouts = [], [], []
        with archive.open(accuracy.main_xml_name(archive)) as stream:
            for _, element in ET.iterparse(stream, events=("end",)):
                attributes = element.attrib
                if element.tag == "Record" and attributes.get("type") == accuracy.STEP_TYPE:
                    self.records.append({
                        "type": attributes["type"], "source": attributes.get("sourceName"),
                        "device": attributes.get("device"), "unit": attributes.get("unit"),
                        "version": attributes.get("sourceVersion"),
                        "start": accuracy.epoch(attributes["startDate"]), "end": accuracy.epoch(attributes["endDate"]),
                        "creation": accuracy.epoch(attributes["creationDate"]) if attributes.get("creationDate")
                        else None,
                        "value": attributes.get("value"),
                        "metadata": {m.get("key"): m.get("value") for m in element.findall("MetadataEntry")},
                    })
                elif element.tag == "Record" and attributes.get("type") == SLEEP:
                    record = {"device": attributes.get("device"), "source": attributes.get("sourceName"),
                              "metadata": {m.get("key"): m.get("value") for m in element.findall("MetadataEntry")}}
                    self.sleep.append((accuracy.epoch(attributes["startDate"]), accuracy.epoch(attributes["endDate"]),
                                       (self.source_class(record), record["source"]),
                                       attributes.get("value", "").startswith("HKCategoryValueSleepAnalysisAsleep")))
                elif element.tag == "Workout":
                    self.workouts.append(accuracy.epoch(attributes["startDate"]))
                if element.tag in ("Record", "Workout", "ActivitySummary", "Correlation"):
                    element.clear()
        self._dedup()

    def asleep_hours_by_night(self):
        """Hours asleep per night on the day the night ends (a stretch ending from 18:00 counts for the next day,
        as docs/rollups.md says), each stretch of time once: the time line is cut at every sleep sample's start and
        end, and a stretch is asleep when the best source with a sample covering it (Watch, iPhone, other apps,
        hand entries) says an asleep stage there."""
        cuts = sorted({t for start, end, _, _ in self.sleep for t in (start, end)})
        hours = collections.defaultdict(float)
        for a, b, covering in accuracy.covering_stretches(cuts, self.sleep):
            best = min(s[2] for s in covering)
            if any(s[3] for s in covering if s[2] == best):
                night = (datetime.datetime.fromtimestamp(b, ZONE) + datetime.timedelta(hours=6)).date()
                hours[night.isoformat()] += (b - a) / 3600
        return dict(hours)

    def workouts_between(self, first, last):
        return sum(1 for start in self.workouts
                   if first <= datetime.datetime.fromtimestamp(start, ZONE).date().isoformat() <= last)


class Session:
    """One stdio MCP server: initialize, then calls; each answer's bytes and its parsed content."""

    def __init__(self, command, env=None):
        environment = dict(os.environ, **(env or {}))
        self.log = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                        env=environment, text=True, encoding="utf-8")
        self.next_id = 0
        answer = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                             "clientInfo": {"name": "healthetl-peers", "version": "1"}})
        if answer is None or "result" not in answer:
            raise RuntimeError(self.error_line())
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")

    def error_line(self):
        self.log.seek(0)
        return accuracy.error_line(self.log.read()) or "no answer"

    def request(self, method, params):
        self.next_id += 1
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                             "params": params}) + "\n")
        self.process.stdin.flush()
        return accuracy.reply(self.process.stdout, self.next_id)

    def call(self, tool, arguments):
        """(bytes, parsed answer, error): the parsed answer is the structured content, else the text as JSON."""
        answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        if answer is None or "result" not in answer:
            return 0, None, (answer or {}).get("error", {}).get("message") or self.error_line()
        result = answer["result"]
        text = "".join(block.get("text", "") for block in result.get("content", []))
        structured = result.get("structuredContent")
        size = len(text.encode()) + (len(json.dumps(structured, ensure_ascii=False, separators=(",", ":")).encode())
                                     if structured is not None else 0)
        if result.get("isError"):
            return size, None, text[:200]
        if structured is not None and not (list(structured) == ["result"]):
            return size, structured, None
        try:
            return size, json.loads(text), None
        except ValueError:
            return size, structured.get("result") if structured else None, None

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


truth = ExportTruth(export_zip)
steps = truth.daily_steps_one_source()
last = max(steps)
year_ago = (datetime.date.fromisoformat(last) - datetime.timedelta(days=364)).isoformat()
month_ago = (datetime.date.fromisoformat(last) - datetime.timedelta(days=29)).isoformat()
nights = truth.asleep_hours_by_night()
truths = {
    "steps": mean([v for day, v in steps.items() if year_ago <= day <= last]),
    "sleep": mean([v for day, v in nights.items() if month_ago <= day <= last]),
    "workouts": truth.workouts_between(month_ago, last),
}
# Right: equal at the precision the question is answered in (a step, a minute, a workout).
tolerances = {"steps": 0.5, "sleep": 1 / 60, "workouts": 0}
questions = [
    ("steps", f"daily steps over a year ({year_ago} to {last}): the mean a day", "{:,.0f} steps"),
    ("sleep", f"sleep, the last 30 nights ({month_ago} to {last}): hours asleep a night", "{:.2f} h"),
    ("workouts", f"workouts in the last 30 days: how many", "{:,.0f}"),
]


def healthetl_answers(session):
    size, answer, error = session.call("metric_series", {"metric": "Steps", "start": year_ago, "end": last,
                                                          "period": "day"})
    yield size, answer and answer["summary"]["mean"], error, "summary of the days, points by week"
    size, answer, error = session.call("sleep_nights", {"start": month_ago, "end": last})
    yield size, answer and answer["summary"]["mean"], error, "summary, per night and stage"
    size, answer, error = session.call("workouts", {"start": month_ago, "end": last})
    yield size, answer and answer["count"], error, "count, summary, the newest rows"


def export_mcp_answers(session):
    step = "HKQuantityTypeIdentifierStepCount"
    size, answer, error = session.call("get_quantity", {"type": step, "start": year_ago, "end": last})
    yield size, answer and mean([p["value"] for p in answer]), error, "one value per day (mean computed here)"
    size, answer, error = session.call("get_sleep", {"start": month_ago, "end": last})
    yield size, answer and mean([(n.get("asleep_min") or 0) / 60 for n in answer]), error, "per night (mean here)"
    size, answer, error = session.call("get_workouts", {"start": month_ago, "end": last})
    yield size, answer and sum(w["n"] for w in answer), error, "totals per activity type (summed here)"


def server_answers(session):
    size, answer, error = session.call("get_record_statistics", {
        "record_type": "HKQuantityTypeIdentifierStepCount", "start_date": year_ago, "end_date": last, "period": "day"})
    rows = answer if isinstance(answer, list) else (answer or {}).get("items") if answer else None
    yield size, rows and mean([p["sum_value"] for p in rows]), error, "one row per UTC day (mean computed here)"
    size, answer, error = session.call("query_records", {"record_type": SLEEP, "start_date": month_ago,
                                                         "end_date": last})
    note = "raw records, one page" + (f" of {answer.get('total')}" if isinstance(answer, dict) else "")
    yield size, None, error, note + ": no number without paging and adding up"
    size, answer, error = session.call("list_workouts", {"start_date": month_ago, "end_date": last})
    yield size, answer and answer.get("total"), error, "raw workouts, one page (its total)"


servers = [("healthetl", [healthetl, "mcp", "--db", healthetl_db], None, healthetl_answers),
           ("apple-health-export-mcp 0.1.1", [os.path.join(export_venv, "bin", "apple-health-export-mcp")],
            {"AH_DB_PATH": os.path.abspath(export_db)}, export_mcp_answers)]
if server_venv:
    servers.append(("apple-health-mcp-server 0.6.1", [os.path.join(server_venv, "bin", "apple-health-mcp-server"),
                                                      "--db", server_db, "--tz", accuracy.HOME_ZONE, "serve"], None,
                    server_answers))

cells = collections.defaultdict(dict)
for name, command, env, answers in servers:
    try:
        session = Session(command, env)
    except (RuntimeError, OSError) as failure:
        for key, _, _ in questions:
            cells[key][name] = f"does not start: {failure}"
        continue
    for (key, _, shape), (size, number, error, note) in zip(questions, answers(session)):
        if error:
            cells[key][name] = f"{size / 1000:.1f} KB; error: {error}"
            continue
        right = number is not None and abs(number - truths[key]) <= tolerances[key]
        shown = shape.format(number) if number is not None else "no number"
        verdict = "" if number is None else (" (right)" if right else " (wrong)")
        cells[key][name] = f"{size / 1000:.1f} KB; {shown}{verdict}; {note}"
    session.close()

names = [name for name, *_ in servers]
print(f"Export {os.path.basename(export_zip)} ({os.path.getsize(export_zip) / 1e6:.0f} MB zipped), "
      f"days in {accuracy.HOME_ZONE}; answer bytes = text + structuredContent")
print()
print("| question | truth (from the XML) | " + " | ".join(names) + " |")
print("|---|---|" + "---|" * len(names))
for key, question, shape in questions:
    print(f"| {question} | {shape.format(truths[key])} | " + " | ".join(cells[key].get(n, "") for n in names) + " |")
