"""Measures what healthetl and three peers give on one generated export with known truth, and writes docs/accuracy.md.

Run by scripts/accuracy, which builds, generates the exports, installs the peers and runs every importer first; this
file only reads what they stored (and asks the two MCP servers over their own protocol), computes the truth from the
export itself, and writes the page. Input: the work folder of scripts/accuracy (see `main`).

The truth is computed here from the generated zip (XML and ECG CSVs), independently of healthetl and of the
generator's code, and cross-checked against the generator's tally (ExportTally) where the tally has the number.
"""
import argparse
import collections
import datetime
import json
import os
import re
import sqlite3
import struct
import subprocess
import sys
import tempfile
import zipfile
import xml.etree.ElementTree as ET
from zoneinfo import ZoneInfo

HOME_ZONE = "Europe/Berlin"
STEP_TYPE = "HKQuantityTypeIdentifierStepCount"
TOOLS = ["healthetl", "healthkit-to-sqlite", "apple-health-export-mcp", "apple-health-mcp-server"]


# --- The truth, from the export itself ------------------------------------------------------------------------------

def epoch(text):
    """`2024-04-08 19:24:29 +0200` (the export's format) → UTC seconds."""
    return int(datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S %z").timestamp())


def short_type(identifier):
    """The type without its HealthKit prefix: the one name all four tools' storage can be matched on."""
    return identifier.replace("HKQuantityTypeIdentifier", "").replace("HKCategoryTypeIdentifier", "")


def number_or_text(value):
    if value is None or value == "":
        return ""
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)


def record_key(type_, source, start, creation, value):
    """What identifies one record across the four tools' storage: type, source, start and creation instants, value
    as exported (healthetl's `raw_value`; the peers keep the exported value)."""
    return (short_type(type_), source, start, creation, number_or_text(value))


def main_xml_name(archive):
    """The main XML found by its content (a `HealthData` root or DOCTYPE), whatever its name."""
    for name in archive.namelist():
        if name.lower().endswith(".xml"):
            with archive.open(name) as stream:
                head = stream.read(65536)
                if b"<HealthData" in head or b"<!DOCTYPE HealthData" in head:
                    return name
    raise SystemExit("accuracy: no HealthData XML in the export")


def device_model(device):
    for part in (device or "").split(", "):
        if part.startswith("model:"):
            return part[len("model:"):]
    return ""




def reply(stream, identifier):
    """The JSON-RPC message with `identifier` read from a stdio server's output, lines that are not JSON and other
    messages passed over; None when the stream ends first."""
    while True:
        line = stream.readline()
        if not line:
            return None
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("id") == identifier:
            return message

def covering_stretches(cuts, samples):
    """The stretches between consecutive `cuts` (sorted instants) that samples cover, each with the samples
    (tuples starting with start and end) that cover all of it: a sweep in start order, so each sample is looked
    at while it is active only."""
    by_start = sorted(samples)
    active, next_sample = [], 0
    for a, b in zip(cuts, cuts[1:]):
        while next_sample < len(by_start) and by_start[next_sample][0] <= a:
            active.append(by_start[next_sample])
            next_sample += 1
        active = [s for s in active if s[1] > a]
        covering = [s for s in active if s[0] <= a and s[1] >= b]
        if covering:
            yield a, b, covering

class Truth:
    """Everything the questions need, read from the export's XML and ECG CSVs."""

    def __init__(self, zip_path):
        archive = zipfile.ZipFile(zip_path)
        self.xml_name = main_xml_name(archive)
        self.records = []  # top-level Records: dicts
        self.children = []  # Records inside Correlations
        self.statistics = []  # (nested in a WorkoutActivity, type, start, end)
        stack = []
        with archive.open(self.xml_name) as stream:
            for event, element in ET.iterparse(stream, events=("start", "end")):
                if event == "start":
                    stack.append(element.tag)
                    continue
                stack.pop()
                parent = stack[-1] if stack else None
                if element.tag == "Record" and parent in ("HealthData", "Correlation"):
                    attributes = element.attrib
                    metadata = {entry.get("key"): entry.get("value") for entry in element.findall("MetadataEntry")}
                    record = {
                        "type": attributes["type"], "source": attributes.get("sourceName"),
                        "device": attributes.get("device"), "unit": attributes.get("unit"),
                        "version": attributes.get("sourceVersion"),
                        "start": epoch(attributes["startDate"]), "end": epoch(attributes["endDate"]),
                        "creation": epoch(attributes["creationDate"]) if attributes.get("creationDate") else None,
                        "value": attributes.get("value"), "metadata": metadata,
                    }
                    (self.records if parent == "HealthData" else self.children).append(record)
                elif element.tag == "WorkoutStatistics" and parent in ("Workout", "WorkoutActivity"):
                    self.statistics.append((parent == "WorkoutActivity", element.get("type"),
                                            epoch(element.get("startDate")), epoch(element.get("endDate"))))
                if parent == "HealthData":
                    element.clear()
        self._dedup()
        self.ecgs = self._read_ecgs(archive)

    def _dedup(self):
        """Exact duplicates (identical but for the device's 0x address) once; among an app's records with the same
        sync identifier, the highest version only."""
        def identity(record):
            device = record["device"] or ""
            masked = device.split(">", 1)[-1] if device.startswith("<<HKDevice") else device
            return (record["type"], record["source"], record["version"], masked, record["unit"], record["start"],
                    record["end"], record["creation"], record["value"], tuple(sorted(record["metadata"].items())))
        seen, distinct = set(), []
        for record in self.records:
            key = identity(record)
            if key not in seen:
                seen.add(key)
                distinct.append(record)
        self.exact_duplicates = len(self.records) - len(distinct)
        highest = {}
        for record in distinct:
            sync = record["metadata"].get("HKMetadataKeySyncIdentifier")
            if sync is not None:
                group = (record["source"], sync)
                highest[group] = max(highest.get(group, 0), int(record["metadata"].get("HKMetadataKeySyncVersion", 0)))
        self.superseded, self.latest, self.distinct = [], [], []
        for record in distinct:
            sync = record["metadata"].get("HKMetadataKeySyncIdentifier")
            if sync is None:
                self.distinct.append(record)
                continue
            version = int(record["metadata"].get("HKMetadataKeySyncVersion", 0))
            if version < highest[(record["source"], sync)]:
                self.superseded.append(record)
            else:
                self.latest.append(record)
                self.distinct.append(record)

    @staticmethod
    def _read_ecgs(archive):
        """Each ECG CSV: its samples as numbers (the file's decimal separator, `.` or `,`), recorded instant, and
        whether its header is localised (not English)."""
        ecgs = []
        for name in sorted(archive.namelist()):
            if "/electrocardiograms/" not in name or not name.endswith(".csv"):
                continue
            lines = archive.read(name).decode("utf-8").splitlines()
            header = {}
            index = 0
            while index < len(lines) and not (lines[index].startswith("Unit,") or lines[index].startswith("単位,")):
                if "," in lines[index]:
                    label, _, value = lines[index].partition(",")
                    header[label] = value
                index += 1
            samples = [float(line.replace(",", ".")) for line in lines[index + 1:] if line.strip()]
            recorded = header.get("Recorded Date") or header.get("記録日")
            ecgs.append({"file": name.rsplit("/", 1)[-1], "recorded": epoch(recorded), "samples": samples,
                         "localised": "Recorded Date" not in header, "labels": list(header)[:3]})
        return ecgs

    def record_keys(self, records):
        return [record_key(r["type"], r["source"], r["start"], r["creation"], r["value"]) for r in records]

    def source_class(self, record):
        """Watch 0, iPhone 1, other apps 2, hand entries 3 (HKWasUserEntered = 1, whatever the device)."""
        if record["metadata"].get("HKWasUserEntered") == "1":
            return 3
        model = device_model(record["device"])
        if "Watch" in model:
            return 0
        if "iPhone" in model:
            return 1
        return 2

    def daily_steps_one_source(self):
        """Steps per local day (Europe/Berlin) with one source per stretch of time: the time line is cut at every
        sample's start and end and at local midnights; in each stretch only the best source with a sample covering
        it counts (Watch, then iPhone, then other apps, then hand entries; then by name), each sample's value spread
        evenly over its duration."""
        zone = ZoneInfo(HOME_ZONE)
        samples = [(r["start"], r["end"], float(r["value"]), (self.source_class(r), r["source"]))
                   for r in self.distinct if r["type"] == STEP_TYPE]
        first = min(s[0] for s in samples)
        last = max(s[1] for s in samples)
        cuts = {s[0] for s in samples} | {s[1] for s in samples}
        day = datetime.datetime.fromtimestamp(first, zone).date()
        while True:
            midnight = int(datetime.datetime.combine(day, datetime.time(), zone).timestamp())
            if midnight > last:
                break
            cuts.add(midnight)
            day += datetime.timedelta(days=1)
        cuts = sorted(cuts)
        totals = collections.defaultdict(float)
        for a, b, covering in covering_stretches(cuts, samples):
            best = min(s[3] for s in covering)
            share = sum(s[2] * (b - a) / (s[1] - s[0]) for s in covering if s[3] == best)
            totals[datetime.datetime.fromtimestamp(a, zone).date().isoformat()] += share
        return dict(totals)

    def daily_steps_whole_samples(self):
        """A coarser reading of the same rule: a sample counts whole, on the day it starts, when no sample of a better
        class (Watch < iPhone < apps < hand entries) overlaps it, and not at all otherwise."""
        zone = ZoneInfo(HOME_ZONE)
        steps = [(self.source_class(r), r["start"], r["end"], float(r["value"]))
                 for r in self.distinct if r["type"] == STEP_TYPE]
        totals = collections.defaultdict(float)
        for kind, start, end, value in steps:
            if not any(other < kind and s < end and start < e for other, s, e, _ in steps):
                totals[datetime.datetime.fromtimestamp(start, zone).date().isoformat()] += value
        return dict(totals)

    def daily_steps_added(self):
        """Every distinct sample counted, whatever overlaps it (what adding iPhone and Watch gives), by start date."""
        zone = ZoneInfo(HOME_ZONE)
        totals = collections.defaultdict(float)
        for r in self.distinct:
            if r["type"] == STEP_TYPE:
                totals[datetime.datetime.fromtimestamp(r["start"], zone).date().isoformat()] += float(r["value"])
        return dict(totals)


# --- What each tool stored ------------------------------------------------------------------------------------------

def iso_epoch(text):
    """`2024-04-08T06:00:10Z` (healthetl) or the export's own format (the SQLite peers keep it) → UTC seconds."""
    if text is None or text == "":
        return None
    if "T" in text:
        return int(datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
                   .replace(tzinfo=datetime.timezone.utc).timestamp())
    return epoch(text)


def sqlite_rows(path, sql, *parameters):
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return connection.execute(sql, parameters).fetchall()
    finally:
        connection.close()


def duckdb_rows(python, path, queries):
    """Runs each query on a DuckDB file with the venv's python (its duckdb), instants as UTC epoch seconds."""
    program = (
        "import duckdb, json, sys\n"
        "connection = duckdb.connect(sys.argv[1], read_only=True)\n"
        "connection.execute(\"SET TimeZone = 'UTC'\")\n"
        "queries = json.loads(sys.argv[2])\n"
        "print(json.dumps({name: [list(row) for row in connection.execute(sql).fetchall()]\n"
        "                  for name, sql in queries.items()}, default=str))\n")
    output = subprocess.run([python, "-c", program, path, json.dumps(queries)], check=True, capture_output=True,
                            text=True).stdout
    return json.loads(output)


class Stored:
    """One tool's storage of one export: its records as matchable keys, plus what the other questions read."""

    def __init__(self, tool, work, prefix, venv_312):
        self.tool = tool
        self.keys = collections.Counter()
        self.records = 0
        self.statistics = None  # [(type, start, end)], or None: no statistics stored at all
        self.statistics_linked = None  # statistics linked to their WorkoutActivity
        self.ecg = None  # {recorded epoch: [samples]} or None: not read at all
        self.correlation_links = None
        self.steps = None  # {date: value} from the tool's own query or table
        getattr(self, "_read_" + tool.replace("-", "_"))(work, prefix, venv_312)

    def _add(self, type_, source, start, creation, value):
        self.keys[record_key(type_, source, start, creation, value)] += 1
        self.records += 1

    def _read_healthetl(self, work, prefix, _):
        db = os.path.join(work, prefix + "healthetl.sqlite")
        for table in ("cumulative_samples", "discrete_samples", "category_samples"):
            for row in sqlite_rows(db, f"SELECT type, source_name, start_date, creation_date, "
                                       f"coalesce(raw_value, value) FROM {table}"):
                self._add(row[0], row[1], iso_epoch(row[2]), iso_epoch(row[3]), row[4])
        self.statistics = [(t, iso_epoch(s), iso_epoch(e)) for t, s, e in
                           sqlite_rows(db, "SELECT type, start_date, end_date FROM workout_statistics")]
        self.statistics_linked = sqlite_rows(db, "SELECT count(activity_id) FROM workout_statistics")[0][0]
        self.ecg = {}
        for recorded, count, blob in sqlite_rows(db, "SELECT recorded_date, sample_count, samples FROM ecg_recordings"):
            self.ecg[iso_epoch(recorded)] = list(struct.unpack(f"<{count}f", blob)) if blob else []
        self.correlation_links = sqlite_rows(db, "SELECT count(*) FROM correlation_samples")[0][0]
        # Its daily totals: the rollups (what daily.csv and the Datasette query show).
        self.steps = dict(sqlite_rows(db, "SELECT date, value FROM daily_rollups WHERE column_name = 'StepCount'"))

    def _read_healthkit_to_sqlite(self, work, prefix, _):
        db = os.path.join(work, prefix + "healthkit-to-sqlite.sqlite")
        tables = [name for (name,) in sqlite_rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")
                  if name.startswith("r")]
        for table in tables:
            # A table gets the columns its rows had: value-less categories (mindful sessions) have no `value`.
            columns = {row[1] for row in sqlite_rows(db, f'PRAGMA table_info("{table}")')}
            value = "value" if "value" in columns else "NULL"
            for row in sqlite_rows(db, f'SELECT sourceName, startDate, creationDate, {value} FROM "{table}"'):
                self._add(table[1:], row[0], iso_epoch(row[1]), iso_epoch(row[2]), row[3])
        # No query layer: a user sums its step table per date of startDate.
        self.steps = dict(sqlite_rows(db, "SELECT substr(startDate, 1, 10), sum(value) FROM rStepCount GROUP BY 1"))

    def _read_apple_health_export_mcp(self, work, prefix, _):
        db = os.path.join(work, prefix + "apple-health-export-mcp.sqlite")
        for row in sqlite_rows(db, "SELECT type, source, start, created, value FROM record"):
            self._add(row[0], row[1], iso_epoch(row[2]), iso_epoch(row[3]), row[4])

    def _read_apple_health_mcp_server(self, work, prefix, venv_312):
        db = os.path.join(work, prefix + "apple-health-mcp-server.duckdb")
        result = duckdb_rows(os.path.join(venv_312, "bin", "python"), db, {
            "records": "SELECT record_type, source_name, epoch(start_date)::BIGINT, epoch(creation_date)::BIGINT, "
                       "coalesce(CAST(value AS VARCHAR), text_value) FROM records",
            "statistics": "SELECT stat_type, epoch(start_date)::BIGINT, epoch(end_date)::BIGINT "
                          "FROM workout_statistics",
            "ecg": "SELECT epoch(r.recorded_date)::BIGINT, s.voltage_uv FROM ecg_readings r "
                   "LEFT JOIN ecg_samples s USING (ecg_hash) ORDER BY 1, s.sample_idx",
            "links": "SELECT count(*) FROM correlation_members",
        })
        for row in result["records"]:
            self._add(row[0], row[1], row[2], row[3], row[4])
        self.statistics = [tuple(row) for row in result["statistics"]]
        self.ecg = collections.defaultdict(list)
        for recorded, voltage in result["ecg"]:
            self.ecg[recorded]  # a reading without samples is still a reading
            if voltage is not None:
                self.ecg[recorded].append(voltage)
        self.correlation_links = result["links"][0][0]


# --- The MCP servers, asked over their own protocol -----------------------------------------------------------------

def mcp_call(command, env, tool, arguments, timeout=120):
    """Starts a stdio MCP server, initializes, calls one tool; returns (answer text, None) or (None, error line)."""
    environment = dict(os.environ)
    environment.update(env)
    log = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")  # stderr, never a full pipe
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                               env=environment, text=True)

    def send(message):
        process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()

    def receive(identifier):
        return reply(process.stdout, identifier)

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "healthetl-accuracy", "version": "1"}}})
        answer = receive(1)
        if answer is not None:
            send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
            answer = receive(2)
    except (BrokenPipeError, OSError):
        answer = None
    try:
        process.stdin.close()  # stdio servers exit at the end of their input
    except OSError:
        pass
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.seek(0)
    errors = log.read()
    log.close()
    if answer is None or "result" not in answer or answer["result"].get("isError"):
        detail = answer["result"]["content"][0]["text"] if answer and "result" in answer else error_line(errors)
        return None, detail
    return answer["result"]["content"][0]["text"], None


def error_line(text):
    """The line of a failure's output that says what went wrong (the last one naming an error, else the last),
    without a logger's date, level and name."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    chosen = next((line for line in reversed(lines) if "Error" in line or "error" in line),
                  lines[-1] if lines else "(no output)")
    chosen = re.sub(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ +[A-Z]+ +[\w.]+: ", "", chosen)
    if not chosen.endswith((".", "?", "!", ")", "'", '"')) and ". " in chosen:
        chosen = chosen[:chosen.rindex(". ") + 1]  # a message wrapped onto the next line: its complete sentences
    return chosen


# --- The page -------------------------------------------------------------------------------------------------------

def n(value):
    return f"{value:,.0f}"


def signed(value):
    return f"{value:+,.0f}"


def percent(part, whole):
    return f"{part / whole:+.1%}" if whole else "n/a"


def steps_summary(truth, answer):
    """(total, worst day, days within one step, sum of |daily deviation|) of one tool's daily steps against truth."""
    days = sorted(truth)
    deviations = {day: answer.get(day, 0.0) - truth[day] for day in days}
    worst = max(days, key=lambda day: abs(deviations[day]))
    total_truth = sum(truth.values())
    total = sum(answer.get(day, 0.0) for day in days)
    return {
        "total": total, "total_deviation": total - total_truth, "total_percent": percent(total - total_truth,
                                                                                         total_truth),
        "worst_day": worst, "worst": deviations[worst], "worst_percent": percent(deviations[worst], truth[worst]),
        "within": sum(1 for day in days if abs(deviations[day]) < 1), "days": len(days),
        "absolute": sum(abs(value) for value in deviations.values()),
        "missing": [day for day in days if day not in answer],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", required=True, help="scripts/accuracy's work folder")
    parser.add_argument("--out", required=True)
    parser.add_argument("--command", required=True, help="the command line that made the page")
    parser.add_argument("--generator-flags", required=True)
    parser.add_argument("--venv", required=True)
    parser.add_argument("--venv-312", default="")
    parser.add_argument("--venv-312-unpinned", default="")
    parser.add_argument("--missing-312", default="")
    parser.add_argument("--pin", default="")
    arguments = parser.parse_args()
    work = arguments.work

    # Which importer ran on which export, how it ended.
    runs = {}
    for line in open(os.path.join(work, "runs.tsv"), encoding="utf-8"):
        tool, export, status, seconds, error = line.rstrip("\n").split("\t")
        runs[(tool, export)] = {"status": int(status), "seconds": float(seconds), "error": error}
    tools = [tool for tool in TOOLS if (tool, "standard") in runs]

    truth = Truth(os.path.join(work, "export.zip"))
    tally = json.load(open(os.path.join(work, "tally.json")))
    checks = []  # the truth computed here against the generator's tally

    def check(what, ours, theirs):
        checks.append(f"{what}: {ours:,} here, {theirs:,} in the tally" + ("" if ours == theirs else " — DIFFERENT"))

    check("top-level records", len(truth.records), tally["records"])
    check("exact duplicate copies", truth.exact_duplicates, tally["exactDuplicateRecords"])
    check("superseded sync versions", len(truth.superseded), tally["syncSuperseded"])
    check("correlation children", len(truth.children), tally["correlationChildRecords"])
    check("workout statistics (nested included)", len(truth.statistics), tally["workoutStatistics"])
    check("ECG samples", sum(len(e["samples"]) for e in truth.ecgs), tally["ecgSamples"])
    added = truth.daily_steps_added()
    tally_added = {day: sum(sources.values()) for day, sources in tally["stepsBySourcePerDay"].items()}
    check("steps, every distinct sample added, all days", round(sum(added.values())), sum(tally_added.values()))
    one_source = truth.daily_steps_one_source()

    stored, failures = {}, {}
    for tool in tools:
        run = runs[(tool, "standard")]
        if run["status"] != 0:
            failures[tool] = run["error"]
            continue
        stored[tool] = Stored(tool, work, "", arguments.venv_312)

    # Daily steps as each MCP server answers them through its own tool.
    first, last = min(one_source), max(one_source)
    mcp_notes = {}
    if "apple-health-export-mcp" in stored:
        text, error = mcp_call([os.path.join(arguments.venv, "bin", "apple-health-export-mcp")],
                               {"AH_DB_PATH": os.path.abspath(os.path.join(work, "apple-health-export-mcp.sqlite"))},
                               "get_quantity", {"type": STEP_TYPE, "start": first, "end": last, "agg": "sum",
                                                "bucket": "day"})
        if error:
            failures.setdefault("apple-health-export-mcp steps", error)
        else:
            stored["apple-health-export-mcp"].steps = {p["period"]: p["value"] for p in json.loads(text)}
    if "apple-health-mcp-server" in stored:
        server = [os.path.join(arguments.venv_312, "bin", "apple-health-mcp-server"), "--db",
                  os.path.join(work, "apple-health-mcp-server.duckdb"), "--tz", HOME_ZONE, "serve"]
        text, error = mcp_call(server, {}, "get_record_statistics",
                               {"record_type": STEP_TYPE, "start_date": first, "end_date": last, "period": "day"})
        if error:
            failures.setdefault("apple-health-mcp-server steps", error)
        else:
            stored["apple-health-mcp-server"].steps = {p["period"][:10]: p["sum_value"] for p in json.loads(text)}
        if arguments.venv_312_unpinned:
            unpinned = [os.path.join(arguments.venv_312_unpinned, "bin", "apple-health-mcp-server")] + server[1:]
            text, error = mcp_call(unpinned, {}, "get_record_statistics",
                                   {"record_type": STEP_TYPE, "start_date": first, "end_date": last, "period": "day"})
            mcp_notes["unpinned"] = error or "answered"

    versions = tool_versions(arguments)
    page = Page(arguments, truth, tally, runs, tools, stored, failures, one_source, added, checks, mcp_notes,
                versions)
    text = page.render()
    with open(arguments.out, "w", encoding="utf-8") as out:
        out.write(text)
    print(page.summary())


def venv_versions(venv, packages):
    if not venv:
        return {}
    program = ("import importlib.metadata as m, json, sys, platform\n"
               "out = {'python': platform.python_version()}\n"
               "for name in sys.argv[1:]:\n"
               "    try: out[name] = m.version(name)\n"
               "    except m.PackageNotFoundError: pass\n"
               "print(json.dumps(out))\n")
    return json.loads(subprocess.run([os.path.join(venv, "bin", "python"), "-c", program, *packages], check=True,
                                     capture_output=True, text=True).stdout)


def tool_versions(arguments):
    healthetl = subprocess.run([".build/release/healthetl", "--version"], capture_output=True, text=True).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "Sources", "Package.swift"],
                           capture_output=True, text=True).stdout.strip()
    return {
        "healthetl": f"{healthetl} (release build of {commit}{', with local changes' if dirty else ''})",
        "py311": venv_versions(arguments.venv, ["healthkit-to-sqlite", "sqlite-utils", "apple-health-export-mcp",
                                                "fastmcp", "mcp"]),
        "py312": venv_versions(arguments.venv_312, ["apple-health-mcp-server", "mcp", "duckdb", "lxml"]),
        "py312-unpinned": venv_versions(arguments.venv_312_unpinned, ["mcp"]),
    }


class Page:
    def __init__(self, arguments, truth, tally, runs, tools, stored, failures, one_source, added, checks, mcp_notes,
                 versions):
        self.arguments, self.truth, self.tally, self.runs = arguments, truth, tally, runs
        self.tools, self.stored, self.failures = tools, stored, failures
        self.one_source, self.added, self.checks = one_source, added, checks
        self.mcp_notes, self.versions = mcp_notes, versions
        self.rows = []  # (question, truth, {tool: answer})

    def no_answer(self, tool):
        return f"no answer: `{self.failures[tool]}`" if tool in self.failures else "no answer"

    def cell(self, tool, function):
        if tool not in self.stored:
            return self.no_answer(tool)
        return function(self.stored[tool])

    # Question 1
    def steps(self):
        truth = self.one_source
        self.steps_results = {}
        for tool in self.tools:
            answer = self.stored[tool].steps if tool in self.stored else None
            self.steps_results[tool] = steps_summary(truth, answer) if answer is not None else None

        def total(tool):
            result = self.steps_results[tool]
            if result is None:
                key = tool + " steps"
                return f"no answer: `{self.failures[key]}`" if key in self.failures else self.no_answer(tool)
            return f"{n(result['total'])} ({signed(result['total_deviation'])}, {result['total_percent']})"

        def worst(tool):
            result = self.steps_results[tool]
            if result is None:
                return "no answer"
            if abs(result["worst"]) < 1:
                return f"{result['worst']:+.2g} on {result['worst_day']}"
            return f"{signed(result['worst'])} on {result['worst_day']} ({result['worst_percent']})"

        def absolute(tool):
            result = self.steps_results[tool]
            if result is None:
                return "no answer"
            text = f"{result['absolute']:,.0f}"
            if result["missing"]:
                text += f" ({len(result['missing'])} days without an answer, counted as 0)"
            return text

        def within(tool):
            result = self.steps_results[tool]
            return "no answer" if result is None else f"{result['within']} of {result['days']}"

        days = len(truth)
        self.rows.append((f"daily steps, iPhone + Watch worn together: total of {days} days (deviation)",
                          n(sum(truth.values())), {tool: total(tool) for tool in self.tools}))
        self.rows.append(("daily steps: worst day's deviation", "0", {tool: worst(tool) for tool in self.tools}))
        self.rows.append(("daily steps: the days' deviations added, each taken positive", "0",
                          {tool: absolute(tool) for tool in self.tools}))
        self.rows.append(("daily steps: days within 1 step of truth", f"{days} of {days}",
                          {tool: within(tool) for tool in self.tools}))

    # Question 2
    def superseded(self):
        superseded = self.truth.record_keys(self.truth.superseded)
        latest = self.truth.record_keys(self.truth.latest)
        distinct = len(set(superseded) - set(latest))
        self.checks.append(f"superseded versions whose type, source, instants and value differ from every newest "
                           f"version (so that a match is that version): {distinct} of {len(superseded)}")

        def answer(stored):
            kept = sum(1 for key in superseded if stored.keys[key] > 0)
            newest = sum(1 for key in latest if stored.keys[key] > 0)
            return f"{kept} of {len(superseded)} (newest versions: {newest} of {len(latest)})"

        self.rows.append(("superseded sync versions stored (newest versions stored)",
                          f"0 of {len(superseded)} (newest versions: {len(latest)} of {len(latest)})",
                          {tool: self.cell(tool, answer) for tool in self.tools}))

    # Question 3
    def statistics(self):
        statistics = self.truth.statistics
        nested = [(t, s, e) for is_nested, t, s, e in statistics if is_nested]
        every = collections.Counter((t, s, e) for _, t, s, e in statistics)

        def answer(stored):
            if stored.statistics is None:
                return f"0 of {len(statistics)} (no workout statistics stored)"
            found = collections.Counter(stored.statistics)
            matched = sum(min(count, found[key]) for key, count in every.items())
            nested_matched = sum(1 for key in nested if found[key] > 0)
            text = f"{matched} of {len(statistics)} (nested: {nested_matched} of {len(nested)}"
            if stored.statistics_linked is not None:
                text += f", linked to their activity: {stored.statistics_linked}"
            return text + ")"

        self.rows.append(("workout statistics stored (those nested in a WorkoutActivity)",
                          f"{len(statistics)} of {len(statistics)} (nested: {len(nested)} of {len(nested)})",
                          {tool: self.cell(tool, answer) for tool in self.tools}))

    # Question 4
    def ecg(self):
        localised = [e for e in self.truth.ecgs if e["localised"]]
        english = [e for e in self.truth.ecgs if not e["localised"]]

        def read(stored, ecgs):
            count, difference, missing = 0, 0.0, 0
            for ecg in ecgs:
                samples = stored.ecg.get(ecg["recorded"])
                if samples is None:
                    missing += 1
                    continue
                count += min(len(samples), len(ecg["samples"]))
                for ours, theirs in zip(samples, ecg["samples"]):
                    difference = max(difference, abs(ours - theirs))
            return count, difference, missing

        def answer(stored, ecgs):
            total = sum(len(e["samples"]) for e in ecgs)
            if stored.ecg is None:
                return f"0 of {n(total)} (no ECG import)"
            count, difference, missing = read(stored, ecgs)
            text = f"{n(count)} of {n(total)}"
            if count:
                text += f", largest difference {difference:.2g} µV"
            if missing:
                text += f"; {missing} of {len(ecgs)} recording{'s' if len(ecgs) > 1 else ''} not stored"
            elif count == 0:
                text += " (the recording is stored, without samples)"
            return text

        local_total = sum(len(e["samples"]) for e in localised)
        english_total = sum(len(e["samples"]) for e in english)
        self.rows.append(("ECG samples read from the Japanese-locale CSV", f"{n(local_total)} of {n(local_total)}",
                          {tool: self.cell(tool, lambda s: answer(s, localised)) for tool in self.tools}))
        self.rows.append((f"ECG samples read from the {len(english)} English CSVs",
                          f"{n(english_total)} of {n(english_total)}",
                          {tool: self.cell(tool, lambda s: answer(s, english)) for tool in self.tools}))

    # Question 5
    def children(self):
        children = self.truth.record_keys(self.truth.children)

        def answer(stored):
            counts = collections.Counter(stored.keys[key] for key in children)
            rows = sum(stored.keys[key] for key in children)
            parts = [f"{counts[c]} stored {'once' if c == 1 else ('twice' if c == 2 else f'{c} times')}"
                     for c in sorted(counts) if c > 0]
            if counts[0]:
                parts.append(f"{counts[0]} missing")
            links = ("; correlations not stored" if stored.correlation_links is None
                     else f"; linked to their correlation: {stored.correlation_links}")
            return f"{rows} rows: {', '.join(parts)}{links}"

        self.rows.append((f"correlation children ({len(children)}, each also written at top level): rows stored",
                          f"{len(children)} rows: {len(children)} stored once; linked: {len(children)}",
                          {tool: self.cell(tool, answer) for tool in self.tools}))

    # Question 6
    def other_export(self, tool, label, prefix):
        """Whether the tool read another form of the export, and its records against those it stored from the
        standard one."""
        run = self.runs.get((tool, label))
        if run is None:
            return "not run"
        if run["status"] != 0:
            return f"no (exit {run['status']}): `{run['error']}`"
        stored = Stored(tool, self.arguments.work, prefix, self.arguments.venv_312)
        if tool not in self.stored:
            return f"yes: {n(stored.records)} records stored"
        difference = stored.records - self.stored[tool].records
        return (f"yes: {n(stored.records)} records stored, "
                + ("the same as from the standard export" if difference == 0
                   else f"{signed(difference)} against the standard export"))

    def file_name(self):
        self.rows.append(("export found when the XML is named 导出.xml", "yes",
                          {tool: self.other_export(tool, "localised", "zh-") for tool in self.tools}))

    # Extra: the export as generated by default (U+000B characters, MyFitnessPal's `meal` beside `Meal`).
    def default_export(self):
        self.rows.append(("reads the generator's default export (U+000B in a source name, `meal` beside `Meal`)",
                          "yes", {tool: self.other_export(tool, "default", "default-") for tool in self.tools}))

    def render(self):
        self.steps()
        self.superseded()
        self.statistics()
        self.ecg()
        self.children()
        self.file_name()
        self.default_export()
        return self.text()

    def header_names(self):
        v = self.versions
        names = {"healthetl": "healthetl"}
        names["healthkit-to-sqlite"] = f"healthkit-to-sqlite {v['py311'].get('healthkit-to-sqlite', '?')}"
        names["apple-health-export-mcp"] = f"apple-health-export-mcp {v['py311'].get('apple-health-export-mcp', '?')}"
        names["apple-health-mcp-server"] = f"apple-health-mcp-server {v['py312'].get('apple-health-mcp-server', '?')}"
        return names

    def text(self):
        a, v, t = self.arguments, self.versions, self.tally
        names = self.header_names()
        date = datetime.date.today().isoformat()
        xml_mb = t["xmlBytes"] / 1e6
        lines = [
            "# Accuracy: healthetl and three peers on one export with known truth",
            "",
            f"<!-- Generated by {a.command} on {date}. Do not edit: rerun the script. -->",
            "",
            f"Generated by `{a.command}` on {date}: it builds healthetl, generates the export, installs the peers "
            "from PyPI into `bench-data/`, runs every importer, measures, and writes this page. It needs a few "
            "minutes and the network to PyPI.",
            "",
            f"**The export.** `generate-export {a.generator_flags}`: the generator's iOS 18 profile, {t['days']} days "
            f"({t['firstDay']} … {t['lastDay']}), {xml_mb:.1f} MB of XML, {t['records']:,} top-level records, "
            f"{t['workouts']} workouts, {t['ecgRecordings']} ECG CSVs; every date in the XML at +0200, which is "
            f"the person's own offset (Europe/Berlin, summer time) on every one of those days, so every tool's day "
            "boundaries are the same. It leaves out the two traps on which two peers stop reading altogether "
            "(last row of the table); the same export with `--xml-name 导出.xml` answers the file-name question.",
            "",
            "**The tools.**",
            f"- healthetl: {v['healthetl']}, `healthetl import export.zip --db … --timezone {HOME_ZONE}`.",
            f"- healthkit-to-sqlite {v['py311'].get('healthkit-to-sqlite')} (sqlite-utils "
            f"{v['py311'].get('sqlite-utils')}, Python {v['py311'].get('python')}), `healthkit-to-sqlite export.zip "
            "db --silent`. It has no query layer: its numbers are queries of the tables it writes.",
            f"- apple-health-export-mcp {v['py311'].get('apple-health-export-mcp')} (fastmcp "
            f"{v['py311'].get('fastmcp')}, mcp {v['py311'].get('mcp')}, Python {v['py311'].get('python')}), "
            "`apple-health-export-mcp-ingest export.zip --db …`; daily steps asked from its MCP server "
            "(`apple-health-export-mcp`, stdio) with its `get_quantity` tool; a fresh install starts and answers.",
        ]
        if v["py312"]:
            unpinned = self.mcp_notes.get("unpinned")
            fresh = ""
            if unpinned:
                fresh = (f" A fresh `pip install` gives mcp {v['py312-unpinned'].get('mcp', '?')}, with which its "
                         f"server {'answers' if unpinned == 'answered' else 'does not start: `' + unpinned + '`'}; "
                         f"{a.pin or 'the pin'} (the last release before 2) makes it start, and that is what was "
                         "measured.")
            lines.append(
                f"- apple-health-mcp-server {v['py312'].get('apple-health-mcp-server')} (mcp {v['py312'].get('mcp')}, "
                f"duckdb {v['py312'].get('duckdb')}, lxml {v['py312'].get('lxml')}, Python "
                f"{v['py312'].get('python')}), `apple-health-mcp-server --db … --tz {HOME_ZONE} import export.zip`; "
                "daily steps asked from its MCP server (`… serve`, stdio) with its `get_record_statistics` tool; "
                "everything else read from the DuckDB file it writes." + fresh)
        else:
            lines.append(f"- apple-health-mcp-server 0.6.1: not measured: {a.missing_312}.")
        lines += [
            "",
            "The MCP servers were asked through their own protocol (JSON-RPC over stdio: `initialize`, then "
            "`tools/call`), as a client would; counts of stored rows were read from each tool's database. Peers "
            "that fail are shown with their error line and count as no answer.",
            "",
            "| question | truth | " + " | ".join(names[tool] for tool in self.tools) + " |",
            "|---|---|" + "---|" * len(self.tools),
        ]
        for question, truth, answers in self.rows:
            lines.append(f"| {question} | {truth} | " + " | ".join(answers[tool] for tool in self.tools) + " |")
        lines += self.explanations()
        lines += ["", "**The truth, cross-checked.** The truth above is computed by `scripts/accuracy.py` from the "
                      "export's own XML and CSVs, not by healthetl and not by the generator's code, and compared with "
                      "the generator's tally (`ExportTally`, `--tally`) where the tally has the same number:", ""]
        lines += [f"- {line}" for line in self.checks]
        lines.append("")
        return "\n".join(lines)

    def explanations(self):
        truth = self.one_source
        total = sum(truth.values())
        added = sum(self.added.values())
        whole = self.truth.daily_steps_whole_samples()
        whole_worst = max(truth, key=lambda day: abs(whole.get(day, 0.0) - truth[day]))
        kinds = collections.Counter(self.truth.source_class(r) for r in self.truth.distinct if r["type"] == STEP_TYPE)
        superseded_types = sorted({short_type(r["type"]) for r in self.truth.superseded})
        return [
            "", "## What was measured, and how", "",
            "**Daily steps.** The export has the steps of an iPhone and of a Watch worn together "
            f"({kinds[0]:,} Watch samples, {kinds[1]:,} iPhone samples, {kinds[3]:,} typed into the Health app): on "
            "most walks both counted the same steps, and the Watch is off some hours a day, when only the iPhone "
            "counted. The truth is the steps of each local day with one source per stretch of time: the time line is "
            "cut at every sample's start and end and at midnight, and in each stretch only the best source with a "
            "sample covering it counts (Watch, then iPhone, then other apps, then hand entries), each sample's steps "
            "spread evenly over its duration; exact duplicate copies and superseded sync versions are left out. It is "
            "computed by `scripts/accuracy.py` from the XML. The Health app also shows one source per stretch of time, "
            "in the order of sources the user set; that order is not in the export, so Watch-first is a choice every "
            "tool has to make. It is healthetl's documented default (docs/rollups.md), so healthetl's row checks its "
            "implementation against an independent one, not its choice of rule. How much the truth depends on the "
            "rule: a coarser reading of it (a sample counts whole when no sample of a better source overlaps it, and "
            f"not at all otherwise) gives {n(sum(whole.values()))} ({percent(sum(whole.values()) - total, total)}; "
            f"its largest daily difference {signed(whole.get(whole_worst, 0.0) - truth[whole_worst])} on "
            f"{whole_worst}). Adding every distinct sample, iPhone and Watch, gives {n(added)} "
            f"({percent(added - total, total)}), which is also the sum of the generator's tally per source. What each "
            "tool gave: healthetl, its `daily_rollups` view (`StepCount`, the numbers of `daily.csv`); "
            "healthkit-to-sqlite, `sum(value)` of its `rStepCount` table per date of `startDate` (the tool has no "
            "daily total of its own); apple-health-export-mcp, its `get_quantity` tool (`sum` per `day`: for each day "
            "it keeps the one source with the most samples that day, and loses what only the other source "
            "counted); "
            "apple-health-mcp-server, its `get_record_statistics` tool (`sum_value` per day: every source added). "
            "Deviations are the tool's number minus the truth.",
            "",
            "**Superseded sync versions.** An app that edits a sample writes it again with the same "
            "`HKMetadataKeySyncIdentifier` and a higher `HKMetadataKeySyncVersion`, and HealthKit keeps only the "
            f"highest version; the export still holds the older ones: {len(self.truth.superseded)} of them here "
            f"({', '.join(superseded_types)}). A tool stored a version when its storage has a row with that record's "
            "type, source, start and creation instants and exported value (healthetl's `raw_value`, before unit "
            "conversion).",
            "",
            "**Workout statistics.** iOS 16+ writes a workout's totals (distance, energy, steps, heart rate, speed) "
            "only as `WorkoutStatistics`, and a workout of several activities (an interval run, a swim-bike-run) also "
            "has statistics inside each `WorkoutActivity`, often of the same types as the workout's own. Counted: rows "
            "of each tool's statistics table that match a statistic of the XML by type, start and end. "
            "apple-health-mcp-server keeps one row per workout and type (its import ends by deleting the others), so "
            "an activity's statistics and the workout's own of the same type leave one row.",
            "",
            "**ECG.** One of the export's ECG CSVs has its header in Japanese (`記録日`, `分類`, `サンプルレート`, …) "
            "and its samples written with a decimal comma (`-7,893`): unlike the XML's numbers, ECG samples are "
            "written in the phone's locale, so phones in comma locales write commas. (The generator puts both traps "
            "in one file; a Japanese phone itself writes decimal points.) The other CSVs are English with decimal "
            "points. Counted: samples stored for each recording, matched by its recorded instant, and the largest "
            "difference from the file's numbers (healthetl stores 32-bit floats). apple-health-mcp-server reads the "
            "Japanese labels (the recording is stored with its date and classification) and stops at the first "
            "sample, which Python's `float()` refuses.",
            "",
            "**Correlation children.** A blood-pressure or food `Correlation` contains its `Record`s, and the exporter "
            "writes each of them again at top level: one measurement, two elements. Counted: rows in each tool's "
            "storage for each child (matched as sync versions are), and the tool's links from a correlation to its "
            "children.",
            "",
            "**A localised file name.** Health names the main XML in the phone's language (`导出.xml` on a Chinese "
            "phone). The same export was generated with that name and imported again; apple-health-mcp-server looks "
            "for `export.xml` by name.",
            "",
            "**The generator's default export.** Without `--no-control-chars --no-case-variant-keys` the export "
            "also has a U+000B character in a third-party source name and metadata value (not allowed in XML; "
            "reported in real exports) and MyFitnessPal's `meal` key beside its `Meal` key. The other rows are "
            "measured without them, so that every tool has an answer. apple-health-mcp-server parses with lxml's "
            "`recover` mode, which reads past the character.",
        ]

    def summary(self):
        names = self.header_names()
        out = []
        for question, truth, answers in self.rows:
            out.append(f"{question}\n    truth: {truth}")
            for tool in self.tools:
                out.append(f"    {names[tool]}: {answers[tool]}")
        return "\n".join(out)


if __name__ == "__main__":
    main()
