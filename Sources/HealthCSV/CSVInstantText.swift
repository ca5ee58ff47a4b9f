import HealthModel

/// Instants as the database stores them (`2024-03-31T06:15:00Z`; HRV beats with centiseconds,
/// `…:48.18Z`) rewritten for a CSV cell in the row's UTC offset.
///
/// Works on bytes from SQLite and into the writer's buffer: a large table has millions of dates, and a
/// `String` or `DateFormatter` per date would dominate the export's time.
enum CSVInstantText {
    /// `2024-03-31T08:15:00.123456789+02:00` fits with room to spare; longer fractions are not instants.
    static let maximumLength = 48

    /// The UTC seconds and the fraction (`.18`, or empty) of a stored instant (`StoredInstant`); nil for any
    /// other text, which is then written as it is.
    static func parseUTC(_ bytes: UnsafeRawBufferPointer) -> (seconds: Int64, fraction: UnsafeRawBufferPointer)? {
        guard let instant = StoredInstant.parse(bytes) else { return nil }
        return (instant.seconds, UnsafeRawBufferPointer(rebasing: bytes[instant.fraction]))
    }

    /// Seconds east of UTC from `+02:00`, `+0200` or `Z` (the forms the export and the database use).
    static func parseOffset(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        if bytes.count == 1, bytes[0] == UInt8(ascii: "Z") { return 0 }
        guard bytes.count == 5 || bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-")
        else { return nil }
        if bytes.count == 6, bytes[3] != UInt8(ascii: ":") { return nil }
        func twoDigits(_ at: Int) -> Int? {
            let high = Int(bytes[at]) &- 48
            let low = Int(bytes[at + 1]) &- 48
            guard (0...9).contains(high), (0...9).contains(low) else { return nil }
            return high * 10 + low
        }
        guard let hours = twoDigits(1), let minutes = twoDigits(bytes.count == 6 ? 4 : 3), hours < 24, minutes < 60
        else { return nil }
        let magnitude = Int32(hours * 3600 + minutes * 60)
        return bytes[0] == UInt8(ascii: "-") ? -magnitude : magnitude
    }

    /// Writes the instant in `style` into `out` (at least `maximumLength` bytes) and returns the byte count.
    /// ISO 8601 carries the offset (`+02:00`, or `Z` without one); the spreadsheet form is the local
    /// wall-clock time without an offset, since spreadsheets have no zone-aware date type.
    static func write(
        seconds: Int64, fraction: UnsafeRawBufferPointer, offset: Int32?, style: CSVDialect.InstantStyle,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        TimestampFormatting.writeUTC(seconds + Int64(offset ?? 0), into: out)
        var length = 19
        out[10] = style == .iso8601 ? UInt8(ascii: "T") : UInt8(ascii: " ")
        for byte in fraction {
            out[length] = byte
            length += 1
        }
        guard style == .iso8601 else { return length }
        guard let offset else {
            out[length] = UInt8(ascii: "Z")
            return length + 1
        }
        let magnitude = Int(offset.magnitude)
        out[length] = offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        TimestampFormatting.put(magnitude / 3600, 2, out, length + 1)
        out[length + 3] = UInt8(ascii: ":")
        TimestampFormatting.put(magnitude / 60 % 60, 2, out, length + 4)
        return length + 6
    }
}
