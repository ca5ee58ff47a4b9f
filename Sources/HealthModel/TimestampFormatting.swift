/// Fixed-width text forms of instants and days, written into caller-provided bytes so the SQLite and CSV
/// sinks can bind them without creating a `String` per date.
public enum TimestampFormatting {
    /// `2019-06-18T01:07:11Z`: UTC, sorts as text, understood by SQLite's date functions, pandas and DuckDB.
    public static let utcLength = 20
    /// `2019-06-17`.
    public static let dateLength = 10

    @inline(__always)
    package static func put(_ value: Int, _ width: Int, _ out: UnsafeMutablePointer<UInt8>, _ at: Int) {
        var remaining = value
        var index = at + width - 1
        while index >= at {
            out[index] = UInt8(48 + remaining % 10)
            remaining /= 10
            index -= 1
        }
    }

    public static func writeUTC(_ seconds: Int64, into out: UnsafeMutablePointer<UInt8>) {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = Timestamp.civilFromDays(days)
        writeDate(year: year, month: month, day: day, into: out)
        out[10] = UInt8(ascii: "T")
        put(secondOfDay / 3600, 2, out, 11)
        out[13] = UInt8(ascii: ":")
        put(secondOfDay / 60 % 60, 2, out, 14)
        out[16] = UInt8(ascii: ":")
        put(secondOfDay % 60, 2, out, 17)
        out[19] = UInt8(ascii: "Z")
    }

    /// `writeUTC` with the date part remembered: consecutive samples share their day, and turning a day
    /// number into a calendar date is the costly part.
    package struct CachedUTCWriter {
        private var day = Int64.min
        private var datePart = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0)
        )

        package init() {}

        package mutating func write(_ seconds: Int64, into out: UnsafeMutablePointer<UInt8>) {
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            if days != day {
                writeUTC(seconds, into: out)
                day = days
                withUnsafeMutableBytes(of: &datePart) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(start: out, count: 10))
                }
                return
            }
            withUnsafeBytes(of: datePart) {
                UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: 10)
            }
            let secondOfDay = Int(seconds - days * 86_400)
            out[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, 2, out, 11)
            out[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, 2, out, 14)
            out[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, 2, out, 17)
            out[19] = UInt8(ascii: "Z")
        }
    }

    public static func writeDate(year: Int, month: Int, day: Int, into out: UnsafeMutablePointer<UInt8>) {
        put(max(0, min(9999, year)), 4, out, 0)
        out[4] = UInt8(ascii: "-")
        put(month, 2, out, 5)
        out[7] = UInt8(ascii: "-")
        put(day, 2, out, 8)
    }

    /// The calendar day of `dayNumber` (days since 1970-01-01).
    public static func writeDay(_ dayNumber: Int32, into out: UnsafeMutablePointer<UInt8>) {
        let (year, month, day) = Timestamp.civilFromDays(Int(dayNumber))
        writeDate(year: year, month: month, day: day, into: out)
    }

    public static func utcString(_ seconds: Int64) -> String {
        String(unsafeUninitializedCapacity: utcLength) { buffer in
            // swift-format-ignore: NeverForceUnwrap
            writeUTC(seconds, into: buffer.baseAddress!)
            return utcLength
        }
    }

    public static func dayString(_ dayNumber: Int32) -> String {
        String(unsafeUninitializedCapacity: dateLength) { buffer in
            // swift-format-ignore: NeverForceUnwrap
            writeDay(dayNumber, into: buffer.baseAddress!)
            return dateLength
        }
    }

    /// `-04:00`, the offset as written in the export.
    public static func offsetString(_ offsetSeconds: Int32) -> String {
        let sign = offsetSeconds < 0 ? "-" : "+"
        let magnitude = Int(abs(offsetSeconds))
        let hours = magnitude / 3600
        let minutes = magnitude / 60 % 60
        return sign + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }
}
