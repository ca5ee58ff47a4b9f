"""The query half of scripts/benchmark-queries: builds the schema 3 copy, times the queries, prints a table."""
import argparse
import sqlite3
import statistics
import time
import zipfile

parser = argparse.ArgumentParser()
parser.add_argument("--zip", required=True)
parser.add_argument("--v4", required=True)
parser.add_argument("--v3", required=True)
parser.add_argument("--ddl", required=True)
parser.add_argument("--runs", type=int, default=7)
args = parser.parse_args()


def make_version3(current, path, ddl):
    """Version 3's tables filled from the public tables and views of the current database."""
    db = sqlite3.connect(path)
    db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 16384;")
    db.executescript(open(ddl).read())
    db.execute("ATTACH ? AS current", (current,))
    tables = [r[0] for r in db.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")]
    for table in tables:
        columns = ", ".join(f'"{r[1]}"' for r in db.execute(f'PRAGMA main.table_info("{table}")'))
        db.execute(f'INSERT INTO main."{table}" ({columns}) SELECT {columns} FROM current."{table}"')
    db.commit()
    db.execute("DETACH current")
    db.execute("PRAGMA user_version = 3")
    db.execute("PRAGMA analysis_limit = 1000")
    db.execute("ANALYZE")
    db.commit()
    db.execute("PRAGMA journal_mode = WAL")
    db.close()


make_version3(args.v4, args.v3, args.ddl)
main_xml = max(zipfile.ZipFile(args.zip).infolist(), key=lambda entry: entry.file_size).file_size

v4 = sqlite3.connect(args.v4)
middle = v4.execute(
    "SELECT local_date FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate' "
    "ORDER BY start_date LIMIT 1 OFFSET (SELECT count(*) / 2 FROM discrete_rows)").fetchone()[0]
workout = v4.execute("SELECT id FROM workouts ORDER BY id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM workouts)").fetchone()[0]
route = v4.execute("SELECT route_id FROM route_points ORDER BY route_id DESC LIMIT 1").fetchone()[0]
v4.close()

queries = [
    ("steps per day, whole range (rows summed)",
     "SELECT local_date, sum(value) FROM cumulative_samples WHERE type = 'HKQuantityTypeIdentifierStepCount' "
     "GROUP BY local_date", ()),
    ("steps per day, whole range (daily_rollups)",
     "SELECT date, value FROM daily_rollups WHERE column_name = 'StepCount' ORDER BY date", ()),
    ("heart-rate samples of one day",
     "SELECT start_date, value FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate' "
     "AND local_date = ? ORDER BY start_date", (middle,)),
    ("weekly mean heart rate",
     "SELECT strftime('%Y-%W', local_date) AS week, avg(value) FROM discrete_samples "
     "WHERE type = 'HKQuantityTypeIdentifierHeartRate' GROUP BY week", ()),
    ("latest weight",
     "SELECT start_date, value, unit FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierBodyMass' "
     "ORDER BY start_date DESC LIMIT 1", ()),
    ("workouts per month",
     "SELECT substr(local_date, 1, 7) AS month, count(*) FROM workout_overview GROUP BY month", ()),
    ("one workout's metadata",
     "SELECT key, value FROM metadata WHERE parent_table = 'workouts' AND parent_id = ?", (workout,)),
    ("one route's points",
     "SELECT time, latitude, longitude FROM route_points WHERE route_id = ? ORDER BY seq", (route,)),
    ("count and sum of every discrete sample",
     "SELECT count(*), sum(value) FROM discrete_samples", ()),
]

connections = {"3": sqlite3.connect(args.v3), "4": sqlite3.connect(args.v4)}
timings = {(name, v): [] for name, _, _ in queries for v in connections}
answers = {}
for _ in range(args.runs):
    for name, sql, parameters in queries:
        for version, connection in connections.items():
            started = time.perf_counter()
            rows = connection.execute(sql, parameters).fetchall()
            timings[(name, version)].append(time.perf_counter() - started)
            answers.setdefault(name, {})[version] = rows

sizes = {v: sum(r[0] for r in c.execute("SELECT page_count * page_size FROM pragma_page_count, pragma_page_size"))
         for v, c in connections.items()}
print(f"main XML {main_xml / 1e6:.0f} MB; database: schema 3 {sizes['3'] / 1e6:.0f} MB "
      f"({sizes['3'] / main_xml:.2f} per MB of XML), schema 4 {sizes['4'] / 1e6:.0f} MB ({sizes['4'] / main_xml:.2f})")
print()
print(f"| query (median of {args.runs}) | schema 3 | schema 4 | ratio 4/3 | same rows |")
print("|---|---:|---:|---:|---|")
for name, _, _ in queries:
    t3 = statistics.median(timings[(name, "3")]) * 1000
    t4 = statistics.median(timings[(name, "4")]) * 1000
    same = answers[name]["3"] == answers[name]["4"]
    print(f"| {name} | {t3:.1f} ms | {t4:.1f} ms | {t4 / t3 if t3 else float('nan'):.2f} | {'yes' if same else 'NO'} |")
