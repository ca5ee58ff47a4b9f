import Foundation
import HealthModel
import Testing

@testable import HealthWorkoutFiles

/// The pieces the writers are made of, against values worked out by hand.
@Suite struct WorkoutFileUnitTests {
    @Test func fitsCRCIsCRC16ARC() {
        // The check value of CRC-16/ARC (Garmin's FIT CRC) over "123456789".
        var crc = FIT.CRC()
        Array("123456789".utf8).withUnsafeBytes { crc.update($0) }
        #expect(crc.value == 0xBB3D)
    }

    @Test func aFITDataMessageWritesLittleEndianValuesAndInvalidForNone() {
        let definition = FIT.Definition(
            local: 3, global: 20,
            fields: [
                .init(number: 253, type: .uint32), .init(number: 3, type: .uint8), .init(number: 0, type: .sint32),
            ])
        #expect(definition.bytes == [0x43, 0, 0, 20, 0, 3, 253, 4, 0x86, 3, 1, 0x02, 0, 4, 0x85])
        #expect(definition.message([0x0102_0304, nil, -2]) == [3, 4, 3, 2, 1, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF])
        // 300 bpm does not fit a uint8: no value rather than a wrapped one.
        #expect(definition.message([0, 300, nil]) == [3, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(FIT.semicircles(90) == 1 << 30)
        #expect(FIT.time(631_065_600) == 0)
    }

    @Test func samplesAreJoinedByTimeAndInterpolatedOnlyAcrossShortGaps() {
        var series = SampleSeries()
        series.append(time: 1000, value: 100)
        series.append(time: 3000, value: 120)  // 20 s later
        series.append(time: 3000, value: 999)  // a second source at the same instant: ignored
        series.append(time: 9000, value: 150)  // 60 s later: too far to draw a line
        #expect(series.value(at: 1000) == 100)
        #expect(series.value(at: 2000) == 110)
        #expect(series.value(at: 3000) == 120)
        #expect(series.value(at: 5000) == nil)
        #expect(series.value(at: 9000) == 150)
        #expect(series.value(at: 500) == nil)
        #expect(series.value(at: 9500) == nil)
        // Back in time (a second pass) finds the same values.
        #expect(series.value(at: 1500) == 105)
    }

    @Test func lapsCoverTheWorkoutFromEachStartToTheNext() {
        #expect(
            WorkoutReader.contiguous([300, 100, 100, 200], end: 400) == [
                LapSpan(start: 100, end: 200), LapSpan(start: 200, end: 300), LapSpan(start: 300, end: 400),
            ])
    }

    @Test func namesAndNumbers() {
        #expect(WorkoutSport.fileWord("HKWorkoutActivityTypeRunning") == "running")
        #expect(
            WorkoutSport.fileWord("HKWorkoutActivityTypeTraditionalStrengthTraining") == "traditional-strength-training"
        )
        #expect(WorkoutSport.matches("Cycling", "HKWorkoutActivityTypeCycling"))
        #expect(!WorkoutSport.matches("running", "HKWorkoutActivityTypeCycling"))
        var workout = ExportedWorkout(
            id: 1, activityType: "HKWorkoutActivityTypeRunning", sourceID: 1, start: 1_758_046_500, end: 1_758_050_100,
            localStart: "2025-09-16T18:15:00+02:00", timerSeconds: 3600)
        #expect(workout.baseName == "2025-09-16_1815_running")
        #expect(workout.utcOffsetSeconds == 7200)
        workout.localStart = nil
        #expect(workout.baseName == "2025-09-16_1815_running")
        #expect(XMLText.decimal(12.5, places: 2) == "12.5")
        #expect(XMLText.decimal(-0.00001234, places: 7) == "-0.0000123")
        #expect(XMLText.decimal(-0.00000001, places: 7) == "0")
        #expect(XMLText.instant(100_025) == "1970-01-01T00:16:40.25Z")
    }

    @Test func refusedOptionsNameTheOption() {
        #expect(throws: OptionValueError.self) {
            try WorkoutFileOptions.parse(format: "kml", start: nil, end: nil, activity: nil, position: true)
        }
        #expect(throws: OptionValueError.self) {
            try WorkoutFileOptions.parse(format: nil, start: "2024-1-01", end: nil, activity: nil, position: true)
        }
        let options = try? WorkoutFileOptions.parse(
            format: "GPX", start: "2024-01-01", end: "2024-01-31", activity: "running", position: false)
        #expect(options?.format == .gpx && options?.includePosition == false && options?.lastDay == "2024-01-31")
    }
}
