"""A study's cohort with Spark: each person's export imported and published into one Parquet lake by the
executors, then the cohort questions answered with Spark SQL over the lake (docs/lake.md).

    spark-submit pipelines/spark/cohort.py --manifest cohort.csv --lake /data/lake --work /data/work \
        [--healthetl /usr/bin/healthetl] [--out answers/] [--master local[2]]

The manifest is a CSV file with a header `person,export`: a person's id (a folder name: letters, digits, -, _
and .) and the path of their export.zip as the executors see it (a shared mount). Each executor runs

    healthetl import <export> --db <work>/<person>.sqlite --person <person> --parquet <lake>

so the person's working database stays on that machine's <work> folder (keep it: the next run is incremental)
and the lake gets the person's partition, swapped in atomically. `healthetl` must be installed on every worker
(the .deb). Prints one JSON object: each person's import outcome and row counts read back through Spark.
"""

import argparse
import csv
import json
import os
import subprocess
import sys

from pyspark.sql import SparkSession


def import_person(row, lake, work, healthetl):
    """Runs on an executor: one person's import and publish. Returns (person, exit code, last error line)."""
    person, export = row
    os.makedirs(work, exist_ok=True)
    database = os.path.join(work, person + ".sqlite")
    run = subprocess.run(
        [healthetl, "import", export, "--db", database, "--person", person, "--parquet", lake, "--quiet"],
        capture_output=True, text=True)
    error = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
    return person, run.returncode, error


def read_manifest(path):
    with open(path, newline="") as file:
        rows = [(r["person"].strip(), r["export"].strip()) for r in csv.DictReader(file)]
    if not rows:
        sys.exit(f"{path}: no persons")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--lake", required=True)
    parser.add_argument("--work", required=True, help="the folder of the persons' working databases")
    parser.add_argument("--healthetl", default="healthetl")
    parser.add_argument("--out", help="write the answers as Parquet here")
    parser.add_argument("--master", help="e.g. local[2]; default: what spark-submit says")
    arguments = parser.parse_args()
    lake = os.path.abspath(arguments.lake)

    builder = SparkSession.builder.appName("healthetl cohort")
    if arguments.master:
        builder = builder.master(arguments.master)
    spark = builder.config("spark.sql.session.timeZone", "UTC").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")

    # One task per person: the imports run in parallel on the executors.
    persons = read_manifest(arguments.manifest)
    outcomes = (
        spark.sparkContext.parallelize(persons, len(persons))
        .map(lambda row: import_person(row, lake, arguments.work, arguments.healthetl))
        .collect()
    )
    failed = [o for o in outcomes if o[1] != 0]

    # The lake as tables: Hive partition discovery adds the `person` column.
    def table(name):
        frame = spark.read.option("basePath", f"{lake}/{name}").parquet(f"{lake}/{name}")
        frame.createOrReplaceTempView(name)

    for name in ["daily_rollups", "discrete_samples", "cumulative_samples", "workouts"]:
        table(name)

    daily_steps = spark.sql(
        """
        SELECT person, date, value AS steps
        FROM daily_rollups WHERE column_name = 'StepCount'
        ORDER BY person, date
        """)
    weekly_resting_heart_rate = spark.sql(
        """
        SELECT person, date_trunc('week', local_date) AS week, avg(value) AS resting_heart_rate, count(*) AS samples
        FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierRestingHeartRate'
        GROUP BY person, date_trunc('week', local_date)
        ORDER BY person, week
        """)
    counts = spark.sql(
        """
        SELECT person, 'cumulative_samples' AS relation, count(*) AS n FROM cumulative_samples GROUP BY person
        UNION ALL SELECT person, 'discrete_samples', count(*) FROM discrete_samples GROUP BY person
        UNION ALL SELECT person, 'workouts', count(*) FROM workouts GROUP BY person
        UNION ALL SELECT person, 'daily_steps_days', count(*) FROM daily_rollups
            WHERE column_name = 'StepCount' GROUP BY person
        """).collect()
    if arguments.out:
        daily_steps.write.mode("overwrite").parquet(os.path.join(arguments.out, "daily_steps"))
        weekly_resting_heart_rate.write.mode("overwrite").parquet(
            os.path.join(arguments.out, "weekly_resting_heart_rate"))

    result = {
        "imports": {p: {"exit": code, "error": error} for p, code, error in outcomes},
        "counts": {},
        "steps": {},
        "weekly_resting_heart_rate_weeks": {},
    }
    for row in counts:
        result["counts"].setdefault(row["person"], {})[row["relation"]] = row["n"]
    for row in daily_steps.groupBy("person").sum("steps").collect():
        result["steps"][row["person"]] = row["sum(steps)"]
    for row in weekly_resting_heart_rate.groupBy("person").count().collect():
        result["weekly_resting_heart_rate_weeks"][row["person"]] = row["count"]
    print(json.dumps(result, sort_keys=True))
    spark.stop()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
