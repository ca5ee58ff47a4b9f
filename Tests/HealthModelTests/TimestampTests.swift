import Foundation
import Testing

@testable import HealthModel

struct TimestampTests {
    @Test func parsesTheExportFormat() throws {
        let date = try #require(Timestamp.parse("2019-06-17 21:07:11 -0400"))
        #expect(date.offsetSeconds == -4 * 3600)
        #expect(TimestampFormatting.utcString(date.seconds) == "2019-06-18T01:07:11Z")
        #expect(Timestamp.parse("2016-02-29 00:00:00 +0530")?.offsetSeconds == 19_800)
        #expect(Timestamp.parse("2019-06-17 21:07:11 +00:00")?.offsetSeconds == 0)
        #expect(
            Timestamp.parse("2019-06-17T21:07:11Z").map { TimestampFormatting.utcString($0.seconds) }
                == "2019-06-17T21:07:11Z")
    }

    @Test(arguments: [
        "", "2019-06-17", "2019-13-01 00:00:00 +0000", "2019-02-29 00:00:00 +0000", "2019-06-17 24:00:00 +0000",
        "2019-06-17 21:07:11 0400", "2019-06-17 21:07:11 -04", "2019/06/17 21:07:11 -0400", "２０１９-06-17 21:07:11 -0400",
        "2019-06-17 21:07:11 -0400 extra",
    ])
    func rejectsWhatIsNotTheFormat(_ text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    /// Compares the hand-written parser with Foundation's on pseudo-random instants and offsets.
    @Test func agreesWithFoundation() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss ZZZ"
        var state: UInt64 = 42
        func random(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        for _ in 0..<2000 {
            let seconds = Int64(random(4_000_000_000)) - 500_000_000
            let offset = (Int(random(57)) - 28) * 1800
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            let text = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let parsed = try #require(Timestamp.parse(text), "\(text)")
            #expect(parsed.seconds == seconds, "\(text)")
            #expect(Int(parsed.offsetSeconds) == offset, "\(text)")
            let iso = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(TimestampFormatting.utcString(seconds) == iso)
        }
    }

    @Test func localDatesFollowTheZoneAcrossDaylightSavingTime() throws {
        var resolver = LocalDateResolver(timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
        // 2024-03-31 is the spring-forward day in Berlin: 00:30 local is 23:30 UTC the day before.
        let beforeMidnightUTC = try #require(Timestamp.parse("2024-03-30 23:30:00 +0000"))
        #expect(TimestampFormatting.dayString(resolver.day(of: beforeMidnightUTC)) == "2024-03-31")
        // In summer Berlin is UTC+2: 22:30 UTC is already the next day.
        let summer = try #require(Timestamp.parse("2024-07-01 22:30:00 +0000"))
        #expect(TimestampFormatting.dayString(resolver.day(of: summer)) == "2024-07-02")
        // A sample's HKTimeZone wins over the import zone.
        #expect(TimestampFormatting.dayString(resolver.day(of: summer, zoneName: "America/New_York")) == "2024-07-01")
        // Unknown zone names fall back to the import zone instead of failing.
        #expect(TimestampFormatting.dayString(resolver.day(of: summer, zoneName: "Mars/Olympus")) == "2024-07-02")
    }
}

struct TimestampCacheTests {
    /// The cached parser gives exactly what the plain one gives, for runs of dates sharing a day and for
    /// malformed ones.
    @Test func agreesWithThePlainParser() {
        var cache = TimestampCache()
        var texts: [String] = []
        for day in ["2024-02-28", "2024-02-29", "2024-03-01", "2023-02-29"] {
            for time in ["00:00:00", "12:34:56", "23:59:60", "24:00:00", "1a:00:00"] {
                for offset in ["+0100", "-0430", "+0100x", ""] {
                    texts.append(offset.isEmpty ? "\(day) \(time)" : "\(day) \(time) \(offset)")
                }
            }
        }
        for text in texts + texts.reversed() {
            var copy = text
            let cached = copy.withUTF8 { cache.parse($0) }
            #expect(cached == Timestamp.parse(text), "\(text)")
        }
    }
}

struct CachedUTCWriterTests {
    @Test func writesWhatThePlainFormatterWrites() {
        var writer = TimestampFormatting.CachedUTCWriter()
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 20)
        defer { buffer.deallocate() }
        for seconds: Int64 in [
            0, 59, 86_399, 86_400, 86_401, -1, -86_400, -86_401, 1_700_000_000, 1_700_000_001, 1_700_086_400, 0,
        ] {
            writer.write(seconds, into: buffer)
            let text = String(decoding: UnsafeBufferPointer(start: buffer, count: 20), as: UTF8.self)
            #expect(text == TimestampFormatting.utcString(seconds), "\(seconds)")
        }
    }
}

extension TimestampTests {
    /// What the database stores reads back to the same instant, over a wide range; anything else is nil.
    @Test func storedUTCTextReadsBack() {
        var seconds: Int64 = -2_208_988_800  // 1900
        while seconds < 4_102_444_800 {  // 2100
            let text = Array(TimestampFormatting.utcString(seconds).utf8)
            #expect(text.withUnsafeBytes { StoredInstant.seconds($0) } == seconds)
            seconds += 7_654_321
        }
        for bad in ["2024-02-01 08:00:00Z", "2024-02-01T08:00:00+", "2024-13-01T08:00:00Z", "2024-02-01T08:00:0xZ", ""]
        {
            #expect(Array(bad.utf8).withUnsafeBytes { StoredInstant.seconds($0) } == nil, "\(bad)")
        }
    }
}
