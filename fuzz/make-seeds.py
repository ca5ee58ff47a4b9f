#!/usr/bin/env python3
"""Writes the seed inputs of every fuzz target into fuzz/corpus/<target>/seed-*.

Seeds are small valid (and a few deliberately broken) inputs that show the fuzzer the shapes each parser
expects. Re-running this is harmless: it writes a seed only when no file in the folder has its content yet, and never
touches the inputs the fuzzer found and kept (named by their SHA-1).
"""
import hashlib
import io
import os
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

DEVICE = ("&lt;&lt;HKDevice: 0x56c2c64d0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
          "hardware:Watch6,7, software:11.3&gt;")
DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
]>
"""
# The iOS 16 ("Export Version: 12") DTD bug: an ATTLIST without its `>`, then a stray `>`.
BROKEN_DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 12 -->
<!ATTLIST VisionPrescription
  brand            CDATA #IMPLIED
<!ELEMENT RightEye EMPTY>
  device           CDATA #IMPLIED
<!ELEMENT MetadataEntry EMPTY>
>
>
]>
"""
HEAD = '<HealthData locale="en_US">\n <ExportDate value="2024-04-07 09:12:31 +0200"/>\n' \
    ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1984-06-16" HKCharacteristicTypeIdentifierBiologicalSex=' \
    '"HKBiologicalSexMale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeONegative"/>\n'
RECORD = (' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" sourceVersion="11.3" '
          f'device="{DEVICE}" unit="count/min" creationDate="2024-03-24 01:07:32 +0200" '
          'startDate="2024-03-24 01:01:06 +0200" endDate="2024-03-24 01:01:06 +0200" value="59">\n'
          '  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n')
CATEGORY = (' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Phone" unit="" '
            'creationDate="2024-03-24 07:00:00 +0200" startDate="2024-03-23 23:00:00 +0200" '
            'endDate="2024-03-24 07:00:00 +0200" value="HKCategoryValueSleepAnalysisAsleepCore"/>\n')
HRV = (' <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch" unit="ms" '
       'creationDate="2024-03-24 02:13:28 +0200" startDate="2024-03-24 02:09:48 +0200" '
       'endDate="2024-03-24 02:10:50 +0200" value="53.5024">\n  <HeartRateVariabilityMetadataList>\n'
       '   <InstantaneousBeatsPerMinute bpm="83" time="1:09:48.18 AM"/>\n'
       '   <InstantaneousBeatsPerMinute bpm="71" time="01:09:48,92"/>\n'
       '   <InstantaneousBeatsPerMinute bpm="70" time="1:09:49.78\u202fa.m."/>\n'
       '  </HeartRateVariabilityMetadataList>\n </Record>\n')
CORRELATION = (' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="OMRON" '
               'creationDate="2024-03-25 08:52:54 +0200" startDate="2024-03-25 08:48:27 +0200" '
               'endDate="2024-03-25 08:48:27 +0200">\n  <MetadataEntry key="HKWasUserEntered" value="0"/>\n'
               '  <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="OMRON" unit="mmHg" '
               'creationDate="2024-03-25 08:52:54 +0200" startDate="2024-03-25 08:48:27 +0200" '
               'endDate="2024-03-25 08:48:27 +0200" value="80"/>\n </Correlation>\n')
WORKOUT = (' <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="23.67" durationUnit="min" '
           'totalDistance="1.2" totalDistanceUnit="mi" totalEnergyBurned="101.8" totalEnergyBurnedUnit="Cal" '
           'sourceName="Watch" creationDate="2024-03-24 09:29:50 +0200" startDate="2024-03-24 09:05:00 +0200" '
           'endDate="2024-03-24 09:28:40 +0200">\n'
           '  <MetadataEntry key="HKWeatherTemperature" value="49.9689 degF"/>\n'
           '  <MetadataEntry key="HKAverageMETs" value="10.2012 kcal/hr\u00b7kg"/>\n'
           '  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-03-24 09:05:00 +0200" duration="23.6" '
           'durationUnit="min"/>\n'
           '  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-03-24 09:05:00 +0200" '
           'endDate="2024-03-24 09:28:40 +0200" average="120.764" minimum="88.5861" maximum="136.986" '
           'unit="count/min"/>\n'
           '  <WorkoutActivity uuid="6A1F" startDate="2024-03-24 09:05:00 +0200" endDate="2024-03-24 09:28:40 +0200" '
           'duration="23.6" durationUnit="min">\n'
           '   <WorkoutStatistics type="HKQuantityTypeIdentifierStepCount" sum="2556.82" unit="count"/>\n'
           '  </WorkoutActivity>\n'
           '  <WorkoutRoute sourceName="Watch" creationDate="2024-03-24 09:30:15 +0200" '
           'startDate="2024-03-24 09:05:03 +0200" endDate="2024-03-24 09:28:38 +0200">\n'
           '   <FileReference path="/workout-routes/route_2024-03-24_8.28am.gpx"/>\n'
           '  </WorkoutRoute>\n </Workout>\n')
SUMMARY = (' <ActivitySummary dateComponents="2024-03-24" activeEnergyBurned="857.258" activeEnergyBurnedGoal="600" '
           'activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="93" '
           'appleExerciseTimeGoal="30" appleStandHours="15" appleStandHoursGoal="12"/>\n')
CLINICAL = (' <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="e6157d96" '
            'sourceName="Clinic" sourceURL="https://example.org/FHIR" fhirVersion="4.0.1" '
            'receivedDate="2024-03-24 16:13:04 +0200" resourceFilePath="/clinical-records/Observation-7A3A.json"/>\n')
AUDIOGRAM = (' <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Mimi" creationDate="2024-03-26 10:32:40 +0200" '
             'startDate="2024-03-26 10:25:40 +0200" endDate="2024-03-26 10:32:20 +0200">\n'
             '  <SensitivityPoint frequencyValue="125" frequencyUnit="Hz" leftEarValue="10" leftEarUnit="dBHL" '
             'leftEarMasked="NO" rightEarValue="25" rightEarUnit="dBHL" rightEarMasked="YES" '
             'leftEarClampingRangeLowerBound="-10" leftEarClampingRangeUpperBound="75"/>\n </Audiogram>\n')
VISION = (' <VisionPrescription type="glasses" dateIssued="2023-09-06 12:00:00 +0200" '
          'expirationDate="2025-09-05 12:00:00 +0200">\n'
          '  <RightEye sphere="-1.25" sphereUnit="D" cylinder="-0.5" cylinderUnit="D" axis="90" axisUnit="deg" '
          'prismAmount="0.5" prismAmountUnit="^" farPD="32" farPDUnit="mm"/>\n'
          '  <LeftEye sphere="-1.5" sphereUnit="D" axis="85" axisUnit="deg"/>\n </VisionPrescription>\n')
TAIL = '</HealthData>\n'
FULL = DTD + HEAD + RECORD + CATEGORY + HRV + CORRELATION + WORKOUT + SUMMARY + CLINICAL + AUDIOGRAM + VISION + TAIL

GPX = """<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
  <metadata><time>2024-03-24T07:30:15Z</time></metadata>
  <trk><name>Route 2024-03-24 8:28am</name><trkseg>
<trkpt lon="13.404954" lat="52.520008"><ele>34.5</ele><time>2024-03-24T07:05:03Z</time><extensions><speed>1.3</speed><course>50.5</course><hAcc>6.6</hAcc><vAcc>6.4</vAcc></extensions></trkpt>
<trkpt lon="13.405" lat="52.5201"><ele>34.7</ele><time>2024-03-24T07:05:04.250+01:00</time></trkpt>
<trkpt lat="91" lon="2"/>
  </trkseg></trk>
</gpx>
"""
GPX_PREFIXED = """<?xml version="1.0"?>
<gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
<trk><trkseg><trkpt lat="-33.9" lon="151.2"><time>2024-03-24 07:05:03</time><extensions><gpxtpx:speed>2</gpxtpx:speed></extensions></trkpt></trkseg></trk></gpx>
"""

ECG_LINES = ["Name,Jo", 'Date of Birth,"Jun 12, 2006"', "Recorded Date,2023-03-04 20:55:07 -0500",
             "Classification,Sinus Rhythm", 'Symptoms,"Dizziness, Fatigue"', "Software Version,1.90",
             'Device,"Watch6,7"', "Sample Rate,512 hertz", "", "", "Lead,Lead I", "Unit,\u00b5V", ""]
ECG = "\n".join(ECG_LINES + ["-107.825", "-121.163", "0", "12.5e-1", ""])
ECG_COMMA = "\ufeff" + "\r\n".join(ECG_LINES[:7] + ["Sample Rate,512,844 Hz", "", "Lead,Ableitung I", "Unit,\u00b5V", "",
                                                  "-265,868", "\u2212107,5", '"1.234,5"', ""])

STATE_OF_MIND = """{"data": {"metrics": [{"name": "step_count", "data": [{"qty": 10}]}],
  "stateOfMind": [
    {"id": "A1", "start": "2024-06-01 08:00:00 -0700", "end": "2024-06-01 08:00:00 -0700", "kind": "momentaryEmotion",
     "labels": ["Happy", "Calm"], "associations": ["Family"], "valence": 0.8, "valenceClassification": "pleasant",
     "metadata": {"note": "a \\"quoted\\" ] note, with } braces"}},
    {"id": "A2", "start": "2024-06-02 21:00:00 -0700", "kind": "dailyMood", "valence": "-0.5", "labels": "Sad"},
    3, [], {"start": "not a date"}
  ]}}
"""

FHIR = b'{"resourceType": "Observation", "id": "7A3A", "status": "final", "valueQuantity": {"value": 5.4, "unit": "mmol/L"}}'


def make_zip(entries, compression=zipfile.ZIP_DEFLATED, force_zip64=False, comment=b""):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        archive.comment = comment
        for name, data in entries:
            if isinstance(data, str):
                data = data.encode()
            info = zipfile.ZipInfo(name, date_time=(2024, 4, 7, 9, 12, 30))
            info.compress_type = compression
            with archive.open(info, "w", force_zip64=force_zip64) as handle:
                handle.write(data)
    return buffer.getvalue()


def small_export_entries():
    return [
        ("apple_health_export/export.xml", DTD + HEAD + RECORD + WORKOUT + CLINICAL + TAIL),
        ("apple_health_export/export_cda.xml", "<ClinicalDocument><title>x</title></ClinicalDocument>"),
        ("apple_health_export/workout-routes/route_2024-03-24_8.28am.gpx", GPX),
        ("apple_health_export/electrocardiograms/ecg_2024-03-27.csv", ECG),
        ("apple_health_export/clinical-records/Observation-7A3A.json", FHIR),
    ]


def seeds():
    yield "xml", "minimal.xml", DTD + HEAD + RECORD + TAIL
    yield "xml", "full.xml", FULL
    yield "xml", "ios16-broken-dtd.xml", BROKEN_DTD + HEAD + RECORD + TAIL
    yield "xml", "no-dtd.xml", HEAD + CATEGORY + SUMMARY + TAIL
    yield "xml", "entities.xml", ('<?xml version="1.0"?>\n<!DOCTYPE HealthData [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">'
                                  '<!ENTITY x SYSTEM "file:///etc/passwd">]>\n' + HEAD.replace('en_US', '&b;')
                                  + RECORD.replace('value="59"', 'value="&x;"') + TAIL)
    yield "xml", "traversal.xml", DTD + HEAD + WORKOUT.replace('/workout-routes/route_2024-03-24_8.28am.gpx',
                                                               '/../../../etc/passwd') + TAIL
    yield "xml", "control-chars.xml", DTD + HEAD + RECORD.replace('sourceName="Watch"', 'sourceName="W\x01a\x1ftch\udcff"') + TAIL
    yield "xml", "truncated.xml", (DTD + HEAD + HRV)[:-40]
    yield "zip", "export-deflated.zip", make_zip(small_export_entries())
    yield "zip", "export-stored.zip", make_zip(small_export_entries()[:3], compression=zipfile.ZIP_STORED)
    yield "zip", "export-zip64.zip", make_zip(small_export_entries()[:1], force_zip64=True, comment=b"c")
    yield "zip", "duplicates.zip", make_zip([("export.xml", HEAD + TAIL), ("export.xml", HEAD + RECORD + TAIL)])
    yield "zip", "flat-export.zip", make_zip([("export.xml", HEAD + SUMMARY + TAIL)])
    yield "gpx", "apple.gpx", GPX
    yield "gpx", "prefixed.gpx", GPX_PREFIXED
    yield "gpx", "truncated.gpx", GPX[:300]
    yield "ecg", "english.csv", ECG
    yield "ecg", "comma-decimal-bom-crlf.csv", ECG_COMMA
    for index, text in enumerate([
            "2019-06-17 21:07:11 -0400", "2024-02-29 00:00:00 +0000", "2024-12-31 23:59:60 +1400",
            "1970-01-01T00:00:00Z", "2019-06-17 21:07:11+05:30", "0000-03-01 00:00:00 -2359",
            "9999-12-31 23:59:59", "2019-06-17 21:07:11 -04"]):
        yield "timestamp", f"{index}.txt", text
    for index, text in enumerate([
            "56.1244", "9.9854e-06", "1.2e+06", "88.23378186623255", "-265,868", "-0", "0.000", "1e22",
            "123456789012345678", "4.9e-324", "1.7976931348623157e308", ".5", "5.", "1,5"]):
        yield "number", f"{index}.txt", text
    for index, text in enumerate([
            "count/min", "kg", "mL/min\u00b7kg", "mmol<180.1558800000541>/L|mg/dL", "degF|degC", "kcal/hr\u00b7kg|W/kg",
            "dBASPL", "%|count", "m/s^2", "ft|mi", "IU", "cm^3/(kg\u00b7s)"]):
        yield "unit", f"{index}.txt", text
    yield "stateofmind", "hae.json", STATE_OF_MIND
    yield "stateofmind", "empty-array.json", '{"data": {"stateOfMind": []}}'


def main():
    known = {}
    for target, name, data in seeds():
        folder = os.path.join(ROOT, target)
        os.makedirs(folder, exist_ok=True)
        if folder not in known:
            # Contents already in the folder, e.g. a seed that `-merge=1` kept under its SHA-1 name.
            known[folder] = set()
            for existing in os.listdir(folder):
                with open(os.path.join(folder, existing), "rb") as handle:
                    known[folder].add(hashlib.sha1(handle.read()).hexdigest())
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        if hashlib.sha1(data).hexdigest() in known[folder]:
            continue
        with open(os.path.join(folder, "seed-" + name), "wb") as handle:
            handle.write(data)


if __name__ == "__main__":
    main()
