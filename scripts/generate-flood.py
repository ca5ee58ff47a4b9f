#!/usr/bin/env python3
"""Writes an export whose bulk is the children of one element (memory at any shape: scripts/benchmark-memory).

    scripts/generate-flood.py KIND COUNT OUT [TIMES]

KIND is one of
  metadata  one Record with COUNT MetadataEntry children
  route     an iOS 12 Workout whose WorkoutRoute holds COUNT inline Location elements
  beats     an HRV Record with COUNT InstantaneousBeatsPerMinute in its HeartRateVariabilityMetadataList
  gpx       an iOS 13+ Workout whose route file (workout-routes/…gpx) holds COUNT track points
  ecg       an ECG CSV (electrocardiograms/…csv) of COUNT samples
  fhir      a clinical record whose FHIR JSON file (clinical-records/…json) is COUNT bytes long

TIMES (default 1) repeats the flooded element: that many Records (metadata, beats), or that many routes in the
one Workout (route, gpx), each with COUNT children. OUT becomes an unzipped export folder (OUT/apple_health_export/export.xml and its side files), which healthetl
imports as it is. Each flood sits between two ordinary records, so the import reads something on either side of
it. Everything is streamed to the files in pieces; nothing is built whole in memory, so COUNT can be as large
as the disk allows.
"""
import os
import sys

KINDS = ("metadata", "route", "beats", "gpx", "ecg", "fhir")
DEVICE = ("&lt;&lt;HKDevice: 0x283c4a300&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
          "hardware:Watch6,2, software:9.1&gt;")
PIECE = 4096  # children written per write() call


def usage():
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    sys.exit(64)


def ordinary_record(minute):
    return (f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Flood iPhone" unit="count" '
            f'creationDate="2019-06-11 15:{minute:02d}:00 -0700" startDate="2019-06-11 15:{minute:02d}:00 -0700" '
            f'endDate="2019-06-11 15:{minute:02d}:30 -0700" value="{10 + minute}"/>\n')


def clock(second):
    """A time of day as the iOS 12 exporter wrote it: date, time and the one offset, second after second."""
    day, rest = divmod(second, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    # 2019-06-11 + day: day numbers past the month roll into July, August, … (30/31 days are enough here).
    month, date = 6, 11 + day
    for length in (30, 31, 31, 30, 31, 30, 31, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31):
        if date <= length:
            break
        date -= length
        month += 1
    year = 2019 + (month - 1) // 12
    month = (month - 1) % 12 + 1
    return f"{year:04d}-{month:02d}-{date:02d} {hours:02d}:{minutes:02d}:{seconds:02d}"


def write_children(out, count, child):
    for first in range(0, count, PIECE):
        out.write("".join(child(index) for index in range(first, min(first + PIECE, count))))


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in KINDS or not sys.argv[2].isdigit() \
            or not (len(sys.argv) == 4 or sys.argv[4].isdigit()):
        usage()
    kind, count, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    times = int(sys.argv[4]) if len(sys.argv) == 5 else 1
    folder = os.path.join(root, "apple_health_export")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "export.xml"), "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
                  ' <ExportDate value="2019-07-19 10:36:11 -0700"/>\n'
                  ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-02-02" '
                  'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexMale" '
                  'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" '
                  'HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>\n')
        out.write(ordinary_record(0))
        for _ in range(times if kind in ("metadata", "beats") else 1):
            write_flood(out, kind, count, times, folder)
        out.write(ordinary_record(59))
        out.write("</HealthData>\n")


def write_flood(out, kind, count, times, folder):
    """One flooded element (for route and gpx: one Workout with TIMES routes)."""
    if kind == "metadata":
        out.write(' <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Flood Scale" unit="kg" '
                  'creationDate="2019-06-11 15:01:00 -0700" startDate="2019-06-11 15:01:00 -0700" '
                  'endDate="2019-06-11 15:01:00 -0700" value="72.5">\n')
        write_children(out, count, lambda i: f'  <MetadataEntry key="com.example.flood.key{i}" value="{i}"/>\n')
        out.write(" </Record>\n")
    elif kind == "beats":
        out.write(' <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" '
                  f'sourceVersion="9.1" device="{DEVICE}" unit="ms" creationDate="2019-06-11 15:02:00 -0700" '
                  'startDate="2019-06-11 15:01:00 -0700" endDate="2019-06-11 15:02:00 -0700" value="48.2">\n'
                  '  <HeartRateVariabilityMetadataList>\n')

        def beat(index):
            hundredths = 15 * 360000 + 6000 + index * 83  # one beat every 0.83 s from 15:01:00
            seconds, fraction = divmod(hundredths % 8640000, 100)
            hours, rest = divmod(seconds, 3600)
            return (f'   <InstantaneousBeatsPerMinute bpm="{60 + index % 40}" '
                    f'time="{hours}:{rest // 60:02d}:{rest % 60:02d}.{fraction:02d}"/>\n')
        write_children(out, count, beat)
        out.write("  </HeartRateVariabilityMetadataList>\n </Record>\n")
    elif kind in ("route", "gpx"):
        out.write(' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="1440" durationUnit="min" '
                  'totalDistance="100" totalDistanceUnit="km" totalEnergyBurned="9000" totalEnergyBurnedUnit="kcal" '
                  f'sourceName="Apple Watch" sourceVersion="5.2" creationDate="{clock(54000 + count)} -0700" '
                  f'startDate="2019-06-11 15:00:00 -0700" endDate="{clock(54000 + count)} -0700">\n'
                  '  <MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/>\n'
                  f'  <WorkoutRoute sourceName="Flood iPhone" sourceVersion="12.3" '
                  f'creationDate="{clock(54000 + count)} -0700" startDate="2019-06-11 15:00:00 -0700" '
                  f'endDate="{clock(54000 + count)} -0700">\n')
        for route in range(times):
            if route > 0:
                out.write(f'  </WorkoutRoute>\n  <WorkoutRoute sourceName="Flood iPhone" sourceVersion="12.3" '
                          f'startDate="2019-06-11 15:00:00 -0700" endDate="{clock(54000 + count)} -0700">\n')
            if kind == "route":
                write_children(out, count, lambda i: (
                    f'   <Location date="{clock(54000 + i)} -0700" latitude="{37.7 + (i % 100000) * 1e-6:.6f}" '
                    f'longitude="{-122.4 - (i % 70000) * 1e-6:.6f}" altitude="{20 + i % 50}.5" '
                    f'horizontalAccuracy="4.2" verticalAccuracy="3.1" course="{i % 360}" speed="2.8"/>\n'))
            else:
                out.write(f'   <FileReference path="/workout-routes/route_{route}.gpx"/>\n')
                write_gpx(os.path.join(folder, "workout-routes"), count, f"route_{route}.gpx")
        out.write("  </WorkoutRoute>\n </Workout>\n")
    elif kind == "fhir":
        out.write(' <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="flood" '
                  'sourceName="Flood Hospital" sourceURL="https://fhir.example/Observation/flood" fhirVersion="4.0.1" '
                  'receivedDate="2019-06-11 15:00:00 -0700" '
                  'resourceFilePath="/clinical-records/Observation-flood.json"/>\n')
        write_fhir(os.path.join(folder, "clinical-records"), count)
    elif kind == "ecg":
        write_ecg(os.path.join(folder, "electrocardiograms"), count)


def write_gpx(folder, count, name):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Apple Health Export" '
                  'xmlns="http://www.topografix.com/GPX/1/1">\n <trk>\n  <name>Route 2019-06-11 3:00pm</name>\n'
                  '  <trkseg>\n')
        write_children(out, count, lambda i: (
            f'   <trkpt lon="{-122.4 - (i % 70000) * 1e-6:.6f}" lat="{37.7 + (i % 100000) * 1e-6:.6f}">'
            f'<ele>{20 + i % 50}.5</ele><time>{clock(79200 + i).replace(" ", "T")}Z</time><extensions>'
            f'<speed>2.8</speed><course>{i % 360}</course><hAcc>4.2</hAcc><vAcc>3.1</vAcc></extensions></trkpt>\n'))
        out.write("  </trkseg>\n </trk>\n</gpx>\n")


def write_ecg(folder, count):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "ecg_2019-06-11.csv"), "w", encoding="utf-8") as out:
        out.write('Name,Flood\nDate of Birth,"Feb 2, 1990"\nRecorded Date,2019-06-11 15:00:00 -0700\n'
                  'Classification,Sinus Rhythm\nSymptoms,\nSoftware Version,1.90\nDevice,"Watch6,2"\n'
                  'Sample Rate,512 hertz\n\n\nLead,Lead I\nUnit,µV\n\n')
        write_children(out, count, lambda i: f"{(i % 400) - 200}.{i % 1000:03d}\n")


def write_fhir(folder, size):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "Observation-flood.json"), "w", encoding="utf-8") as out:
        head = '{"resourceType":"Observation","id":"flood","note":['
        out.write(head)
        written = len(head)
        entry = '{"text":"' + "x" * 90 + '"}'
        first = True
        while written + len(entry) + 3 < size:
            out.write(entry if first else "," + entry)
            written += len(entry) + (0 if first else 1)
            first = False
        out.write("]}")


if __name__ == "__main__":
    main()
