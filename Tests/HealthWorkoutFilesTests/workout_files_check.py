"""Reads a folder of workout files written by `healthetl export --workouts` back with the real readers and
compares them with the database (Tests/HealthWorkoutFilesTests). Independent of the Swift code on purpose: its own
SQL, its own interpolation and its own haversine.

usage: workout_files_check.py <database> <folder> <fit|tcx|gpx> [--no-position]
Prints a JSON summary on stdout; exits 1 with every problem on stderr.
"""

import bisect
import glob
import json
import math
import os
import sqlite3
import sys
import tempfile
from datetime import datetime, timezone

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Schemas")
LIMIT = 30.0  # seconds: the documented interpolation limit (docs/workouts.md)
MARGIN = 60  # seconds: route points this far outside the workout are not its
problems = []


def problem(text):
    problems.append(text)


def utc(text):
    return int(datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


def seconds(value, unit):
    return value * {"s": 1, "min": 60, "hr": 3600, "h": 3600}[unit]


def close(a, b, relative=0.005, absolute=0.0):
    return abs(a - b) <= max(abs(b) * relative, absolute)


def haversine(a, b):
    r = math.pi / 180
    h = math.sin((b[0] - a[0]) * r / 2) ** 2 + math.cos(a[0] * r) * math.cos(b[0] * r) * math.sin((b[1] - a[1]) * r / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


class Workout:
    def __init__(self, db, row):
        (self.id, self.activity, self.source, start, end, duration, unit, self.distance) = row
        self.start, self.end = utc(start), utc(end)
        self.duration = seconds(duration, unit) if duration is not None else self.end - self.start
        events = db.execute(
            "SELECT type, date, duration, duration_unit FROM workout_events WHERE workout_id = ? AND activity_id IS NULL"
            " AND date IS NOT NULL ORDER BY date, id", (self.id,)).fetchall()
        laps = sorted({utc(e[1]) for e in events if e[0] == "HKWorkoutEventTypeLap"})
        segments = sorted({utc(e[1]) for e in events if e[0] == "HKWorkoutEventTypeSegment"})
        self.lap_starts = [min(max(t, self.start), self.end) for t in (laps or segments)]
        self.strokes = db.execute(
            "SELECT coalesce((SELECT sum FROM workout_statistics WHERE workout_id = ?1 AND activity_id IS NULL AND type ="
            " 'HKQuantityTypeIdentifierSwimmingStrokeCount'), (SELECT sum(sum) FROM workout_statistics WHERE workout_id ="
            " ?1 AND activity_id IS NOT NULL AND type = 'HKQuantityTypeIdentifierSwimmingStrokeCount'))",
            (self.id,)).fetchone()[0] if self.activity == "HKWorkoutActivityTypeSwimming" else None
        self.pauses = sum(1 for e in events if e[0] in ("HKWorkoutEventTypePause", "HKWorkoutEventTypeMotionPaused"))
        self.route = []
        for route_id, in db.execute(
                "SELECT id FROM workout_routes WHERE workout_id = ? AND problem IS NULL ORDER BY point_count DESC, id",
                (self.id,)):
            points = db.execute(
                "SELECT time_centis, latitude, longitude FROM route_point_rows WHERE route_id = ? AND time_centis"
                " BETWEEN ? AND ? ORDER BY seq", (route_id, (self.start - MARGIN) * 100, (self.end + MARGIN) * 100)
            ).fetchall()
            if len(points) >= 2:
                self.route = points
                break
        hr = "HKQuantityTypeIdentifierHeartRate"
        query = ("SELECT start_date, value FROM discrete_samples WHERE type = ? AND unit = 'count/min' AND start_date >= ?"
                 " AND start_date <= ? {} ORDER BY start_date, id")
        window = (hr, start, end)
        rows = db.execute(query.format("AND source_id = ?"), window + (self.source,)).fetchall() or db.execute(
            query.format(""), window).fetchall()
        self.hr = []
        for time, value in rows:
            t = utc(time)
            if not self.hr or t > self.hr[-1][0]:
                self.hr.append((t, value))
        self.hr_times = [sample[0] for sample in self.hr]

    def heart_rate(self, t):
        """The sample at t, a line between the two around it when at most LIMIT apart, else None."""
        index = bisect.bisect_right(self.hr_times, t)  # samples[:index] are at or before t
        if index and self.hr[index - 1][0] == t:
            return self.hr[index - 1][1]
        if index == 0 or index == len(self.hr) or self.hr[index][0] - self.hr[index - 1][0] > LIMIT:
            return None
        (t0, v0), (t1, v1) = self.hr[index - 1], self.hr[index]
        return v0 + (v1 - v0) * (t - t0) / (t1 - t0)

    def expected_laps(self):
        """Lap starts: the events', else whole kilometres along the route, else the start."""
        if self.lap_starts:
            return self.lap_starts
        starts, total, following = [self.start], 0.0, 1000.0
        for previous, point in zip(self.route, self.route[1:]):
            total += haversine(previous[1:], point[1:])
            if total >= following:
                starts.append(point[0] // 100)
                following = math.floor(total / 1000) * 1000 + 1000
        return starts


def check_heart_rate(name, workout, points):
    """points: (unix seconds, bpm or None). Every point's heart rate is the samples' at its time."""
    with_hr = 0
    for t, bpm in points:
        expected = workout.heart_rate(t)
        if expected is None:
            if bpm is not None:
                problem(f"{name}: heart rate {bpm} at {t} where the database has no sample near")
        elif bpm is None or abs(bpm - expected) > 0.5 + 1e-6:
            problem(f"{name}: heart rate {bpm} at {t}, expected {expected:.2f}")
        else:
            with_hr += 1
    if workout.hr and with_hr == 0:
        problem(f"{name}: no point carries heart rate though the workout has {len(workout.hr)} samples")
    return with_hr


def check_common(name, workout, start, timer, distance, lap_starts, position_count, no_position):
    if start != workout.start:
        problem(f"{name}: starts {start}, the database {workout.start}")
    if not close(timer, workout.duration, absolute=1.0):
        problem(f"{name}: timer {timer:.3f} s, the database's duration {workout.duration:.3f} s")
    if workout.distance and not close(distance or 0, workout.distance):
        problem(f"{name}: distance {distance}, the database {workout.distance}")
    expected = workout.expected_laps()
    if lap_starts != expected:
        problem(f"{name}: lap starts {lap_starts}, expected {expected}")
    if no_position and position_count:
        problem(f"{name}: {position_count} positions written with --no-position")
    if not no_position and workout.route and position_count != len(workout.route):
        problem(f"{name}: {position_count} positions, the route has {len(workout.route)}")


def check_fit(name, path, workout, no_position):
    from garmin_fit_sdk import Decoder, Stream
    import fitdecode
    decoder = Decoder(Stream.from_file(path))
    if not decoder.is_fit() or not Decoder(Stream.from_file(path)).check_integrity():
        problem(f"{name}: Garmin's SDK: not a FIT file, or its integrity check fails")
    messages, errors = Decoder(Stream.from_file(path)).read(enable_crc_check=True)
    if errors:
        problem(f"{name}: Garmin's SDK: {errors}")
        return
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.RAISE) as reader:
        kinds = [frame.name for frame in reader if isinstance(frame, fitdecode.FitDataMessage)]
    for kind in ("file_id", "device_info", "event", "lap", "session", "activity"):
        if kind not in kinds:
            problem(f"{name}: fitdecode finds no {kind} message")
    for message in messages.get("file_id_mesgs", []) + messages.get("device_info_mesgs", []):
        if "serial_number" in message or "product_name" in message:
            problem(f"{name}: a serial number or product name")
    session = messages["session_mesgs"][0]
    laps = messages.get("lap_mesgs", [])
    records = messages.get("record_mesgs", [])
    stops = [e for e in messages.get("event_mesgs", []) if e.get("event") == "timer" and e.get("event_type") == "stop_all"]
    strokes = session.get("total_strokes", session.get("total_cycles"))
    if (workout.strokes is None) != (strokes is None) or (strokes is not None and abs(strokes - workout.strokes) > 0.5):
        problem(f"{name}: {strokes} strokes, the database {workout.strokes}")
    if len(stops) != workout.pauses + 1:
        problem(f"{name}: {len(stops)} timer stops for {workout.pauses} pauses")
    if abs(sum(lap["total_elapsed_time"] for lap in laps) - session["total_elapsed_time"]) > 0.01 * len(laps):
        problem(f"{name}: the laps' elapsed times do not add up to the session's")
    if workout.distance and not close(sum(lap.get("total_distance", 0) for lap in laps), workout.distance):
        problem(f"{name}: the laps' distances do not add up to the workout's")
    check_common(
        name, workout, int(session["start_time"].timestamp()), session["total_timer_time"],
        session.get("total_distance"), [int(lap["start_time"].timestamp()) for lap in laps],
        sum(1 for r in records if "position_lat" in r), no_position)
    return check_heart_rate(name, workout, [(int(r["timestamp"].timestamp()), r.get("heart_rate")) for r in records])


def validator(*schemas):
    from lxml import etree
    folder = tempfile.mkdtemp()
    imports = "".join(
        f'<xsd:import namespace="{namespace}" schemaLocation="file://{os.path.join(SCHEMAS, file)}"/>'
        for namespace, file in schemas)
    driver = os.path.join(folder, "driver.xsd")
    with open(driver, "w") as out:
        out.write(f'<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">{imports}</xsd:schema>')
    return etree.XMLSchema(etree.parse(driver))


def check_tcx(name, path, workout, no_position, schema):
    from lxml import etree
    from tcxreader.tcxreader import TCXReader
    document = etree.parse(path)
    if not schema.validate(document):
        problem(f"{name}: not valid TCX v2: {schema.error_log.last_error}")
        return
    ns = {"t": "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"}
    if document.xpath("//t:Creator|//t:Author|//t:Notes", namespaces=ns):
        problem(f"{name}: a Creator, Author or Notes")
    exercise = TCXReader().read(path, only_gps=False)
    laps = document.xpath("//t:Lap", namespaces=ns)
    lap_starts = [utc(lap.get("StartTime").split(".")[0].rstrip("Z") + "Z") for lap in laps]
    timer = sum(float(lap.findtext("t:TotalTimeSeconds", namespaces=ns)) for lap in laps)
    distance = sum(float(lap.findtext("t:DistanceMeters", namespaces=ns)) for lap in laps)
    start = utc(document.findtext(".//t:Id", namespaces=ns))
    check_common(name, workout, start, timer, distance, lap_starts,
                 sum(1 for p in exercise.trackpoints if p.latitude is not None), no_position)
    if len(exercise.trackpoints) != len(document.xpath("//t:Trackpoint", namespaces=ns)):
        problem(f"{name}: tcxreader reads {len(exercise.trackpoints)} trackpoints")
    return check_heart_rate(name, workout, [(int(p.time.replace(tzinfo=timezone.utc).timestamp()) if p.time.tzinfo is None
                                              else int(p.time.timestamp()), p.hr_value) for p in exercise.trackpoints])


def check_gpx(name, path, workout, schema):
    import gpxpy
    from lxml import etree
    document = etree.parse(path)
    if not schema.validate(document):
        problem(f"{name}: not valid GPX 1.1 with TrackPointExtension v1: {schema.error_log.last_error}")
        return
    if document.xpath("//*[local-name()='name' or local-name()='author']"):
        problem(f"{name}: a name or author")
    with open(path) as file:
        gpx = gpxpy.parse(file)
    points = [p for track in gpx.tracks for segment in track.segments for p in segment.points]
    if len(points) != len(workout.route):
        problem(f"{name}: {len(points)} points, the route has {len(workout.route)}")
        return
    route_length = sum(haversine(a[1:], b[1:]) for a, b in zip(workout.route, workout.route[1:]))
    if route_length > 0 and not close(gpx.length_2d(), route_length):
        problem(f"{name}: gpxpy measures {gpx.length_2d():.1f} m, the database's route {route_length:.1f} m")
    if int(points[0].time.timestamp()) < workout.start - MARGIN or int(points[-1].time.timestamp()) > workout.end + MARGIN:
        problem(f"{name}: points outside the workout")
    values = []
    tpx = "{http://www.garmin.com/xmlschemas/TrackPointExtension/v1}"
    for point in points:
        hr = None
        for extension in point.extensions:
            found = extension.find(tpx + "hr")
            if found is not None:
                hr = int(found.text)
        values.append((int(point.time.timestamp()), hr))
    return check_heart_rate(name, workout, values)


def main():
    database, folder, kind = sys.argv[1:4]
    no_position = "--no-position" in sys.argv[4:]
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    workouts = [Workout(db, row) for row in db.execute(
        "SELECT id, activity_type, source_id, start_date, end_date, duration, duration_unit,"
        " CASE total_distance_unit WHEN 'm' THEN total_distance END FROM workouts ORDER BY start_date, id")]
    schema = None
    if kind == "tcx":
        schema = validator(("http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2", "TrainingCenterDatabasev2.xsd"))
    elif kind == "gpx":
        schema = validator(("http://www.topografix.com/GPX/1/1", "gpx.xsd"),
                           ("http://www.garmin.com/xmlschemas/TrackPointExtension/v1", "TrackPointExtensionv1.xsd"))
    files = sorted(glob.glob(os.path.join(folder, "*." + kind)))
    by_minute = {}
    for workout, (local,) in zip(workouts, db.execute("SELECT local_start FROM workouts ORDER BY start_date, id")):
        if local:
            by_minute.setdefault(local[:10] + "_" + local[11:13] + local[14:16], []).append(workout)
    checked, points_with_hr = 0, 0
    for path in files:
        name = os.path.basename(path)
        if os.stat(path).st_mode & 0o077:
            problem(f"{name}: readable by others")
        # Which workout: the name says its local minute, activity and, for a second one of both, its number.
        stem = name.rsplit(".", 1)[0]
        number = 1
        if stem.rsplit("_", 1)[-1].isdigit():
            stem, number = stem.rsplit("_", 1)[0], int(stem.rsplit("_", 1)[-1])
        word = stem[16:].replace("-", "")
        same = [w for w in by_minute.get(name[:15], [])
                if word.endswith(w.activity.replace("HKWorkoutActivityType", "").lower())]
        if len(same) < number:
            problem(f"{name}: no such workout in the database")
            continue
        matched = same[number - 1]
        if kind == "fit":
            found = check_fit(name, path, matched, no_position)
        elif kind == "tcx":
            found = check_tcx(name, path, matched, no_position, schema)
        else:
            found = check_gpx(name, path, matched, schema)
        checked += 1
        points_with_hr += found or 0
    print(json.dumps({"files": len(files), "checked": checked, "points_with_heart_rate": points_with_hr,
                      "workouts": len(workouts), "problems": len(problems)}))
    for text in problems[:50]:
        print(text, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
