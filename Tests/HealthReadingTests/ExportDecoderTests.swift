import Foundation
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthReading

struct ExportDecoderTests {
    static let watch =
        "&lt;&lt;HKDevice: 0x533ad2350&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:9.6.3&gt;"

    func decode(_ body: String, doctype: String = "", chunkSize: Int = 64 * 1024) throws -> ([ExportItem], ExportReader)
    {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("export.xml", exportXML(body, doctype: doctype))
        return try readAllItems(path, chunkSize: chunkSize)
    }

    @Test func decodesQuantityAndCategoryRecords() throws {
        let (items, _) = try decode(
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jonathan’s Watch &amp; Co" sourceVersion="9.6.3" device="\(Self.watch)" unit="count" creationDate="2024-02-01 08:10:00 +0100" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="1.2e+03">
              <MetadataEntry key="Withings Link" value="a?b=1&amp;c=2"/>
             </Record>
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Health" startDate="2024-02-01 09:00:00 +0100" endDate="2024-02-01 09:10:00 +0100"/>
            """)
        let samples = items.samples
        #expect(samples.count == 2)
        let steps = try #require(samples.first)
        #expect(steps.value == 1200)
        #expect(steps.unit == "count")
        #expect(steps.source.name == "Jonathan’s Watch & Co")
        #expect(steps.source.device?.hardware == "Watch6,7")
        #expect(steps.metadata == [MetadataEntry(key: "Withings Link", value: "a?b=1&c=2")])
        #expect(steps.flags.isEmpty)
        let mindful = samples[1]
        #expect(mindful.isCategory)
        #expect(mindful.textValue == nil)
        #expect(mindful.flags.isEmpty)
    }

    @Test func keepsAndFlagsBrokenRecords() throws {
        let (items, _) = try decode(
            """
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="X" unit="count/min" startDate="2024-02-01 08:05:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="61"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="X" unit="count/min" startDate="yesterday" value="abc"/>
             <Record sourceName="X" startDate="2024-02-01 08:05:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="1"/>
            """)
        let samples = items.samples
        #expect(samples.count == 3)
        #expect(samples[0].flags == [.startAfterEnd])
        #expect(samples[1].flags == [.badDate, .missingStartDate, .missingEndDate, .badValue])
        #expect(samples[1].textValue == "abc")
        #expect(samples[2].flags.contains(.missingType))
    }

    @Test func anchorsHeartbeatTimesToTheRecord() throws {
        let (items, _) = try decode(
            """
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" unit="ms" startDate="2017-11-22 19:14:47 -0400" endDate="2017-11-22 19:15:47 -0400" value="45">
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="64" time="6:14:48.94 PM"/>
               <InstantaneousBeatsPerMinute bpm="66" time="6:14:49,85 PM"/>
              </HeartRateVariabilityMetadataList>
             </Record>
            """)
        let beats = try #require(items.samples.first?.beats)
        #expect(beats.count == 2)
        // The beats' clock is an hour behind the export offset (DST); the relative position is kept.
        let start = try #require(Timestamp.parse("2017-11-22 19:14:47 -0400")).seconds
        #expect(abs((beats[0].seconds ?? 0) - (Double(start) + 1.94)) < 0.001)
        #expect(abs((beats[1].seconds ?? 0) - (beats[0].seconds ?? 0) - 0.91) < 0.001)
        #expect(beats[1].bpm == 66)
    }

    @Test func beatTimesRollOverMidnight() {
        var beats = ["23:59:59,50", "00:00:00,50"].map {
            HeartbeatReading(bpm: 60, secondOfDay: BeatTimes.secondsOfDay($0), seconds: nil, rawTime: $0)
        }
        let start = Timestamp.parse("2024-01-01 23:59:59 +0000")!
        BeatTimes.anchor(&beats, to: start)
        #expect(beats[1].seconds! - beats[0].seconds! == 1)
    }

    @Test func decodesWorkoutsWithEverythingNested() throws {
        let (items, _) = try decode(
            """
             <Workout workoutActivityType="HKWorkoutActivityTypeSwimBikeRun" duration="88.23378186623255" durationUnit="min" totalDistance="3.1" totalDistanceUnit="mi" sourceName="Watch" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:30:00 +0100">
              <MetadataEntry key="HKIndoorWorkout" value="0"/>
              <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-02-01 08:00:00 +0100" duration="10" durationUnit="min"/>
              <WorkoutActivity uuid="A-1" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:30:00 +0100" duration="30" durationUnit="min">
               <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-02-01 08:10:00 +0100"/>
               <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceSwimming" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:30:00 +0100" sum="1500" unit="m"/>
               <MetadataEntry key="WOIntervalStepKeyPath" value="0.0.0"/>
              </WorkoutActivity>
              <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:30:00 +0100" average="140" minimum="90" maximum="171" unit="count/min"/>
              <WorkoutRoute sourceName="Watch" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:30:00 +0100">
               <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>
               <Location date="2024-02-01 08:00:00 +0100" latitude="48.1" longitude="11.5" altitude="500" horizontalAccuracy="5" verticalAccuracy="3" course="-1" speed="2.5"/>
              </WorkoutRoute>
              <MetadataEntry key="HKIndoorWorkout" value="0"/>
             </Workout>
            """)
        let workout = try #require(items.workouts.first)
        #expect(workout.duration == 88.23378186623255)
        #expect(workout.totalDistance == 3.1)
        #expect(workout.metadata.count == 2)
        #expect(workout.events.count == 2)
        #expect(workout.events[0].activityIndex == nil)
        #expect(workout.events[1].activityIndex == 0)
        #expect(workout.activities.first?.metadata.first?.key == "WOIntervalStepKeyPath")
        #expect(workout.statistics.count == 2)
        #expect(workout.statistics[0].activityIndex == 0)
        #expect(workout.statistics[1].maximum == 171)
        #expect(try workout.routes.first?.points.array().first?.speed == 2.5)
        #expect(workout.routes.first?.metadata.first?.value == "2")
    }

    @Test func linksCorrelationChildren() throws {
        let (items, _) = try decode(
            """
             <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="120"/>
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100">
              <MetadataEntry key="HKWasUserEntered" value="1"/>
              <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="120"/>
             </Correlation>
            """)
        #expect(items.samples.count == 1)
        let correlation = try #require(items.correlations.first)
        #expect(correlation.children.count == 1)
        #expect(correlation.metadata.count == 1)
    }

    @Test func cutsTheMalformedIOS16DoctypeAndKeepsLineNumbers() throws {
        let malformed = """
            <!DOCTYPE HealthData [
            <!ATTLIST VisionPrescription
              brand            CDATA #IMPLIED
            <!ELEMENT RightEye EMPTY>
              device           CDATA #IMPLIED
            <!ELEMENT MetadataEntry EMPTY>
            >
            >
            ]>

            """
        let (items, reader) = try decode(
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="5"/>
            """, doctype: malformed)
        #expect(items.samples.count == 1)
        // The record's line as counted in the text itself, DOCTYPE included.
        let lines = exportXML("X", doctype: malformed).split(separator: "\n", omittingEmptySubsequences: false)
        let expected = try #require(lines.firstIndex { $0.hasPrefix("X") }) + 1
        #expect(items.samples.first.map { Int($0.line) } == expected)
        #expect(reader.warnings.isEmpty)
    }

    @Test func stripsAndCountsControlCharacters() throws {
        let (items, reader) = try decode(
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Bad\u{0B}App\u{01}" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="5"/>
            """)
        #expect(items.samples.first?.source.name == "BadApp")
        #expect(reader.removedControlCharacters == 2)
    }

    @Test func countsUnknownElementsInsteadOfFailing() throws {
        let (items, reader) = try decode(
            """
             <StateOfMindFromTheFuture valence="0.5"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="5"/>
            """)
        #expect(items.samples.count == 1)
        #expect(reader.warnings["unknown element <StateOfMindFromTheFuture> (ignored)"] == 1)
    }

    @Test func malformedXMLNamesFileLineAndColumn() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write(
            "export.xml",
            "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n <Record type=\"A\" value=\"1\">\n</HealthData>\n")
        #expect {
            _ = try readAllItems(path)
        } throws: { error in
            let error = try #require(error as? ImportError)
            // A bare XML is its own entry, so the message reads like a compiler's: file:line:column.
            return error.file == path && error.line == 4 && error.column != nil
                && error.description.hasPrefix("\(path):4:")
                && error.description.contains("Opening and ending tag mismatch")
        }
    }

    @Test func refusesADocumentThatIsNotAnExport() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("other.xml", "<?xml version=\"1.0\"?>\n<gpx><HealthData/></gpx>\n")
        #expect(throws: ImportError.self) { _ = try readAllItems(path) }
    }

    /// Feeding the parser in pieces of any size gives the same items.
    @Test(arguments: [1, 7, 64, 4096])
    func chunkBoundariesDoNotChangeTheResult(chunkSize: Int) throws {
        let body = (0..<50).map { index in
            """
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Wätch \(index % 3)" device="\(Self.watch)" unit="count/min" startDate="2024-02-01 08:\(String(format: "%02d", index)):00 +0100" endDate="2024-02-01 08:\(String(format: "%02d", index)):00 +0100" value="\(60 + index).5"><MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="\(index % 3)"/></Record>
            """
        }.joined(separator: "\n")
        let reference = try decode(body, chunkSize: 1 << 20).0.samples
        let chunked = try decode(body, chunkSize: chunkSize).0.samples
        #expect(reference.count == 50)
        #expect(chunked.count == reference.count)
        for (left, right) in zip(reference, chunked) {
            #expect(left.value == right.value)
            #expect(left.source.name == right.source.name)
            #expect(left.source.device?.key == right.source.device?.key)
            #expect(left.source.device?.hardware == "Watch6,7")
            #expect(left.startDate == right.startDate)
            #expect(left.metadata == right.metadata)
            #expect(left.line == right.line)
        }
    }
}

struct BeatTimeParsingTests {
    static let clockTimes: [(String, Double)] = [
        ("6:14:48.94 PM", 65_688.94), ("20:14:07.68", 72_847.68), ("17:07:00,29", 61_620.29),
        ("00:20:37,80", 1237.8), ("3:10:02,11 AM", 11_402.11), ("12:00:01.00 AM", 1), ("12:30:00 pm", 45_000),
        ("9:05:00\u{202F}p.m.", 75_900),
    ]

    @Test(arguments: clockTimes)
    func parsesLocalisedClockTimes(_ text: String, _ expected: Double) throws {
        let parsed = try #require(BeatTimes.secondsOfDay(text))
        #expect(abs(parsed - expected) < 0.0001)
    }

    @Test(arguments: ["", "abc", "25:00:00", "13:00:00 PM", "6:14:48.94 午後", "12"])
    func rejectsWhatIsNotAClockTime(_ text: String) {
        #expect(BeatTimes.secondsOfDay(text) == nil)
    }
}

struct DeviceAttributeRewriteTests {
    func rewrite(_ text: String) -> String {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { DeviceAttributeRewrite.apply($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func removesBracketsAndAddressKeepingLengthAndFields() {
        let original =
            #" <Record device="&lt;&lt;HKDevice: 0x533ad2350&gt;, name:Apple Watch, hardware:Watch6,7, software:9.6.3&gt;" unit="count"/>"#
        let rewritten = rewrite(original)
        #expect(rewritten.utf8.count == original.utf8.count)
        #expect(rewritten.contains(#"device=""#))
        #expect(!rewritten.contains("&"))
        #expect(rewritten.hasSuffix(#"name:Apple Watch, hardware:Watch6,7, software:9.6.3" unit="count"/>"#))
        let value = rewritten.split(separator: "\"")[1]
        #expect(
            Device(description: String(value)).key
                == Device(description: "<<HKDevice: 0x1>, name:Apple Watch, hardware:Watch6,7, software:9.6.3>").key)
    }

    @Test(arguments: [
        #"device="&lt;&lt;HKDevice: 0x533ad2350&gt;, name:Apple Watch"#,  // cut by the chunk's end
        #"device="&lt;&lt;HKDevice: 0x&gt;, name:X&gt;""#,  // no address
        #"device="&lt;&lt;HKDevice: 0x12&gt;name:X&gt;""#,  // not the exporter's separator
        #"device="&lt;&lt;HKDevice: 0x12&gt;, name:X" "#,  // no closing bracket
        #"sourceName="&lt;&lt;HKDevice: 0x12&gt;, name:X&gt;""#,  // another attribute
        #"device="Fitbit &amp; Co""#,
    ])
    func leavesAnythingElseAlone(_ text: String) {
        #expect(rewrite(text) == text)
    }
}
