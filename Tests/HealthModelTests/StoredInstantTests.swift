import Foundation
import Testing

@testable import HealthModel

/// The one parser of stored instants (`StoredInstant`), which the store, CSV, the lake and the MCP server share:
/// strict about impossible days, hours and offsets, and equal to Foundation's reading of what it accepts.
@Suite struct StoredInstantTests {
    func parse(_ text: String) -> (seconds: Int64, fraction: String)? {
        Array(text.utf8).withUnsafeBytes { bytes in
            StoredInstant.parse(bytes).map { ($0.seconds, String(decoding: bytes[$0.fraction], as: UTF8.self)) }
        }
    }

    @Test func impossibleDaysHoursAndOffsetsAreRefused() {
        for bad in [
            "2024-02-30T25:00:00Z",  // the example that one of three parsers once accepted
            "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-00-10T00:00:00Z",
            "2024-13-01T00:00:00Z", "2024-01-00T00:00:00Z", "2024-01-32T00:00:00Z", "2024-01-01T24:00:00Z",
            "2024-01-01T23:60:00Z", "2024-01-01T23:59:61Z", "2024-01-01T00:00:00+01:00", "2024-01-01T00:00:00+0100",
            "2024-01-01T00:00:00", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00.1x2Z",
            "2024-01-01T00:00:00.1234567890Z", "2024-01-01", "", "-024-01-01T00:00:00Z",
        ] {
            #expect(parse(bad) == nil, "\(bad)")
            #expect(StoredInstant.seconds(bad) == nil, "\(bad)")
        }
    }

    @Test func acceptedInstantsAgreeWithFoundation() throws {
        let formatter = ISO8601DateFormatter()
        for text in [
            "2024-02-29T12:00:00Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2000-02-29T23:59:59Z",
            "2100-12-31T23:59:59Z", "1900-03-01T00:00:00Z",
        ] {
            let date = try #require(formatter.date(from: text))
            #expect(StoredInstant.seconds(text) == Int64(date.timeIntervalSince1970), "\(text)")
            #expect(parse(text)?.fraction == "", "\(text)")
        }
    }

    @Test func fractionsAreKeptForCSVAndScaledForTheLake() {
        #expect(parse("2024-01-01T00:09:48.18Z")?.fraction == ".18")
        #expect(parse("2024-01-01T00:09:48.123456789Z")?.fraction == ".123456789")
        // Whole seconds only where a column holds whole seconds.
        #expect(StoredInstant.seconds("2024-01-01T00:09:48.18Z") == nil)
        let whole = Array("2024-01-01T09:44:45Z".utf8).withUnsafeBytes { StoredInstant.microseconds($0) }
        let tenths = Array("2024-01-01T09:44:45.6Z".utf8).withUnsafeBytes { StoredInstant.microseconds($0) }
        let nanos = Array("2024-01-01T09:44:45.123456789Z".utf8).withUnsafeBytes { StoredInstant.microseconds($0) }
        #expect(tenths == whole.map { $0 + 600_000 })
        // Parquet's timestamps are microseconds: a finer fraction is not silently cut.
        #expect(nanos == nil)
    }
}
