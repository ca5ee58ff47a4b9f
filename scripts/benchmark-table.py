"""Prints scripts/benchmark's results as a Markdown table: medians per export, healthetl against the floor; with
--peers, a second table of every tool on the standard export with its database's size per MB of XML.

Input: the TSV scripts/benchmark writes (shape, zip, tool, run, wall s, user s, sys s, peak RSS KiB, tool's JSON,
database bytes), then any notes to print under the tables (peers not run or failed).
"""
import collections
import json
import os
import statistics
import sys
import zipfile

Run = collections.namedtuple("Run", "wall cpu rss_mb json database_mb")
runs = collections.defaultdict(list)  # (shape, zip, tool) -> [Run]
for line in open(sys.argv[1]):
    shape, zip_path, tool, _run, wall, user, system, rss_kb, document, database = line.rstrip("\n").split("\t")
    runs[(shape, zip_path, tool)].append(
        Run(float(wall), float(user) + float(system), int(rss_kb) / 1024, json.loads(document), int(database) / 1e6))


def side_file_megabytes(zip_path):
    """Uncompressed GPX routes and export_cda.xml: healthetl reads the routes, the floor reads neither."""
    sizes = collections.Counter()
    for info in zipfile.ZipFile(zip_path).infolist():
        if "/workout-routes/" in info.filename:
            sizes["GPX"] += info.file_size
        elif info.filename.endswith("_cda.xml"):
            sizes["CDA"] += info.file_size
    return ", ".join(f"{kind} {size / 1e6:,.0f} MB" for kind, size in sorted(sizes.items()))


def median(tool_runs, field):
    return statistics.median(getattr(run, field) for run in tool_runs)


exports = [(shape, zip_path) for (shape, zip_path, tool) in runs if tool == "healthetl"]
print()
print("| export | XML | healthetl wall / CPU / RSS | CPU ms per MB | rollups | floor wall / CPU / RSS "
      "| wall ratio | CPU ratio |")
print("|---|---:|---|---:|---:|---|---:|---:|")
checks, details = [], []
for shape, zip_path in exports:
    ours, floor = runs[(shape, zip_path, "healthetl")], runs.get((shape, zip_path, "floor"))
    if not floor:
        continue  # interrupted before the floor ran
    xml_mb = ours[0].json["xmlBytes"] / 1e6
    wall, cpu, floor_wall, floor_cpu = (median(ours, "wall"), median(ours, "cpu"),
                                        median(floor, "wall"), median(floor, "cpu"))
    rollup_share = statistics.median((run.json.get("rollupSeconds") or 0) / run.json["seconds"] for run in ours)
    zip_mb = os.path.getsize(zip_path) / 1e6
    print(f"| {shape}, {len(ours)} run{'s' if len(ours) > 1 else ''} | {xml_mb:,.0f} MB ({zip_mb:,.0f} MB zip; "
          f"{side_file_megabytes(zip_path)}) "
          f"| {wall:.1f} s / {cpu:.1f} s / {median(ours, 'rss_mb'):.0f} MB | {cpu * 1000 / xml_mb:.1f} "
          f"| {rollup_share:.0%} | {floor_wall:.1f} s / {floor_cpu:.1f} s / {median(floor, 'rss_mb'):.0f} MB "
          f"| {wall / floor_wall:.2f} | {cpu / floor_cpu:.2f} |")
    # The one-line summary of the earlier single-run script, as medians (docs/performance.md compares with it).
    records = ours[0].json["items"].get("records", 0)
    import_seconds = statistics.median(run.json["seconds"] - (run.json.get("rollupSeconds") or 0) for run in ours)
    details.append(f"{shape}: healthetl {xml_mb / wall:.1f} MB/s of XML end to end, {records / wall:,.0f} records/s "
                   f"({records:,} records), {xml_mb / import_seconds:.1f} MB/s without the rollups, database "
                   f"{median(ours, 'database_mb'):,.0f} MB = {median(ours, 'database_mb') / xml_mb:.2f} MB per MB "
                   f"of XML (floor {median(floor, 'database_mb'):,.0f} MB = "
                   f"{median(floor, 'database_mb') / xml_mb:.2f})")
    # The floor stores every Record element, those inside Correlations included; healthetl's items.records counts
    # the top-level ones, and it drops exact duplicates and superseded sync versions (listed as dropped).
    items, dropped = ours[0].json["items"], sum(ours[0].json.get("dropped", {}).values())
    checks.append(f"{shape}: floor {floor[0].json['records']:,} Record rows, {floor[0].json['metadataEntries']:,} "
                  f"metadata, {floor[0].json['beats']:,} beats; healthetl items.records {items.get('records', 0):,} "
                  f"(top level), dropped {dropped:,}, XML bytes {ours[0].json['xmlBytes']:,} vs floor "
                  f"{floor[0].json['xmlBytes']:,}")

peers = [(tool, run[0]) for (shape, _, tool), run in runs.items() if tool not in ("healthetl", "floor")]
notes = sys.argv[2:]
if peers or notes:
    standard_zip = next(zip_path for (shape, zip_path, tool) in runs if shape == "standard" and tool == "healthetl")
    standard = runs[("standard", standard_zip, "healthetl")]
    floor = runs.get(("standard", standard_zip, "floor"), [])
    xml_mb = standard[0].json["xmlBytes"] / 1e6  # the peers read the same export
    print()
    print(f"| tool, on the standard export ({xml_mb:,.0f} MB of XML) | runs | wall / CPU / RSS | database "
          "| database per MB of XML | healthetl is faster by (wall) | (CPU) |")
    print("|---|---:|---|---:|---:|---:|---:|")
    rows = [("healthetl", len(standard), median(standard, "wall"), median(standard, "cpu"),
             median(standard, "rss_mb"), median(standard, "database_mb"))]
    if floor:
        rows.append(("floor (scripts/floor.c)", len(floor), median(floor, "wall"), median(floor, "cpu"),
                     median(floor, "rss_mb"), median(floor, "database_mb")))
    rows += [(tool, 1, run.wall, run.cpu, run.rss_mb, run.database_mb) for tool, run in peers]
    for tool, count, wall, cpu, rss, database in rows:
        faster = ("| | " if tool in ("healthetl", "floor (scripts/floor.c)") else  # the floor: ratios above
                  f"| ×{wall / median(standard, 'wall'):.1f} | ×{cpu / median(standard, 'cpu'):.1f} ")
        print(f"| {tool} | {count} | {wall:.1f} s / {cpu:.1f} s / {rss:.0f} MB | {database:,.0f} MB "
              f"| {database / xml_mb:.2f} {faster}|")
    if notes:
        print()
    for note in notes:
        print(note)
print()
for line in details + checks:
    print(line)
