import Foundation
import HealthSQLite
import HealthSchema
import Testing

@testable import HealthLake
@testable import HealthParquet

/// The database's text instants and days as Parquet's numbers, against Foundation's own parsing.
@Suite struct LakeValuesTests {
    func micros(_ text: String) -> Int64? { Array(text.utf8).withUnsafeBytes { LakeValues.microseconds($0) } }
    func date(_ text: String) -> Int32? { Array(text.utf8).withUnsafeBytes { LakeValues.date($0) } }

    @Test func instantsAreMicrosecondsSince1970() throws {
        let formatter = ISO8601DateFormatter()
        for text in ["2024-03-31T06:15:00Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59Z", "1969-12-31T23:59:59Z"] {
            let date = try #require(formatter.date(from: text))
            #expect(micros(text) == Int64(date.timeIntervalSince1970) * 1_000_000, "\(text)")
        }
        #expect(micros("2024-01-01T09:44:45.60Z") == micros("2024-01-01T09:44:45Z")! + 600_000)
        #expect(micros("2024-01-01T09:44:45.123456Z") == micros("2024-01-01T09:44:45Z")! + 123_456)
    }

    @Test func textThatIsNoInstantIsRefused() {
        for text in [
            "", "2024-03-31", "2024-03-31T06:15:00", "2024-03-31T06:15:00+01:00", "2024-02-30T00:00:00Z",
            "2024-03-31T25:00:00Z", "2024-03-31T06:15:00.Z", "garbage text here!!",
        ] {
            #expect(micros(text) == nil, "\(text)")
        }
    }

    @Test func daysAreCountedFrom1970() throws {
        #expect(date("1970-01-01") == 0)
        #expect(date("1970-01-02") == 1)
        #expect(date("1969-12-31") == -1)
        let day = try #require(ISO8601DateFormatter().date(from: "2024-03-31T00:00:00Z"))
        #expect(date("2024-03-31") == Int32(day.timeIntervalSince1970 / 86_400))
        #expect(date("2024-03") == nil)
        #expect(date("2024-13-01") == nil)
        #expect(date("2024-03-31T00:00:00Z") == nil)
    }

    /// The writer formats the offsets the lake's view gives as seconds; the public views format them in SQL.
    /// Both must write the same text for every offset, odd seconds and far-off values included.
    @Test func offsetsAreWrittenAsThePublicViewsWriteThem() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        var offsets: [Int64] = [0, 59, 60, 3599, 3600, -1, -59, -60, -3600, 19_800, -34_200, 45_900, 50_400, -43_200]
        offsets += [360_000, -360_000, 1_000_000, Int64(Int32.max)]
        offsets += stride(from: -86_400, through: 86_400, by: 900).map { Int64($0) }
        for seconds in offsets {
            let sql = "SELECT " + Schema.offsetText("\(seconds)")
            let expected = try #require(connection.scalar(sql).text)
            #expect(String(decoding: LakeValues.offsetText(seconds: seconds), as: UTF8.self) == expected, "\(seconds)")
        }
    }

    @Test func columnTypesFollowTheSchema() throws {
        let relations = Dictionary(uniqueKeysWithValues: LakeRelation.all.map { ($0.name, $0) })
        func kind(_ relation: String, _ column: String) throws -> ParquetColumn.Kind {
            try #require(relations[relation]?.columns.first { $0.name == column }).kind
        }
        #expect(try kind("cumulative_samples", "start_date") == .timestampMicrosUTC)
        #expect(try kind("cumulative_samples", "local_date") == .date)
        #expect(try kind("cumulative_samples", "utc_offset") == .string)
        #expect(try kind("cumulative_samples", "value") == .double)
        #expect(try kind("cumulative_samples", "identity") == .integer)
        #expect(try kind("category_samples", "value") == .string)
        #expect(try kind("activity_summaries", "date") == .date)
        #expect(try kind("daily_rollups", "date") == .date)
        #expect(try kind("workout_events", "date") == .timestampMicrosUTC)
        #expect(try kind("sleep", "start_date") == .timestampMicrosUTC)
        #expect(try kind("workout_overview", "indoor") == .integer)
        #expect(relations["all_quantity_samples"] == nil)
        #expect(try kind("hrv_beats", "time") == .timestampMicrosUTC)
        #expect(try kind("hrv_beats", "raw_time") == .string)
        #expect(try kind("ecg_recordings", "samples") == .binary)
        #expect(relations["import_runs"] == nil && relations["anchors"] == nil && relations["documents"] == nil)
    }
}
