"""Reads a healthetl lake with the real readers and compares it with the SQLite database it came from.

usage: lake_check.py <database> <lake> [<person>]

For every relation in the publish's manifest: pyarrow reads the file and every value is compared, column by
column and row by row, with what Python's sqlite3 reads from the same database; DuckDB and polars read it too
(row counts, types). DuckDB's daily steps from the lake are compared with daily_rollups. Prints a JSON summary
on success; exits 1 naming the first difference.
"""
import datetime
import json
import sqlite3
import sys

import duckdb
import polars
import pyarrow
import pyarrow.parquet as pq

database, lake = sys.argv[1], sys.argv[2]
person = sys.argv[3] if len(sys.argv) > 3 else None
manifest = json.load(open(f"{lake}/_healthetl/{'person=' + person if person else 'all'}.json"))
connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
connection.text_factory = str
UTC = datetime.timezone.utc


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def expected(value, arrow_type):
    """The value sqlite3 returns, as the lake's type holds it."""
    if value is None:
        return None
    if pyarrow.types.is_timestamp(arrow_type):
        return datetime.datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)
    if pyarrow.types.is_date32(arrow_type):
        return datetime.date.fromisoformat(value)
    if pyarrow.types.is_floating(arrow_type):
        return float(value)
    if pyarrow.types.is_integer(arrow_type):
        return int(value)
    if pyarrow.types.is_string(arrow_type):
        return value if isinstance(value, str) else str(value)
    if pyarrow.types.is_binary(arrow_type):
        return bytes(value)
    fail(f"unexpected type {arrow_type}")


summary = {"relations": {}, "types": {}}
for relation, file in sorted(manifest["files"].items()):
    path = f"{lake}/{file}"
    table = pq.read_table(path)
    names = table.column_names
    metadata = pq.ParquetFile(path).schema_arrow.metadata
    if metadata[b"healthetl.generation"].decode() != manifest["generation"]:
        fail(f"{path}: generation differs from the manifest")
    rows = connection.execute(
        "SELECT " + ", ".join(f'"{n}"' for n in names) + f' FROM "{relation}"').fetchall()
    if len(rows) != table.num_rows:
        fail(f"{relation}: {table.num_rows} rows in the lake, {len(rows)} in the database")
    for index, name in enumerate(names):
        arrow_type = table.schema.field(name).type
        lake_values = table.column(name).to_pylist()
        for row, (stored, published) in enumerate(zip(rows, lake_values)):
            want = expected(stored[index], arrow_type)
            if want != published:
                fail(f"{relation}.{name} row {row}: database {stored[index]!r}, lake {published!r}")
    summary["relations"][relation] = table.num_rows
    summary["types"][relation] = {n: str(table.schema.field(n).type) for n in names}
    # DuckDB and polars read the same file, with the same count and types.
    count = duckdb.sql(f"SELECT count(*) FROM read_parquet('{path}')").fetchall()[0][0]
    if count != table.num_rows:
        fail(f"{relation}: DuckDB reads {count} rows")
    frame = polars.read_parquet(path)
    if frame.height != table.num_rows:
        fail(f"{relation}: polars reads {frame.height} rows")
    for name, dtype in frame.schema.items():
        arrow_type = str(table.schema.field(name).type)
        if arrow_type.startswith("timestamp") and dtype != polars.Datetime("us", "UTC"):
            fail(f"{relation}.{name}: polars reads {dtype}")
        if arrow_type.startswith("date32") and dtype != polars.Date:
            fail(f"{relation}.{name}: polars reads {dtype}")

# Daily steps from the lake with DuckDB, against the database's daily_rollups.
pattern = f"{lake}/daily_rollups/" + (f"person={person}/" if person else "") + "*.parquet"
lake_steps = duckdb.sql(
    f"SELECT strftime(date, '%Y-%m-%d'), value FROM read_parquet('{pattern}') "
    "WHERE column_name = 'StepCount' ORDER BY 1").fetchall()
database_steps = connection.execute(
    "SELECT date, value FROM daily_rollups WHERE column_name = 'StepCount' ORDER BY 1").fetchall()
if lake_steps != [tuple(r) for r in database_steps] or not database_steps:
    fail(f"daily steps differ: lake {lake_steps[:3]}…, database {database_steps[:3]}…")
summary["daily_steps_days"] = len(lake_steps)
print(json.dumps(summary, sort_keys=True))
