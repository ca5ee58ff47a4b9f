import Glibc

/// A value for `CSVFileWriter.writeRow`, for callers that build rows themselves (rollups, tests).
public enum CSVField: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Seconds since 1970-01-01T00:00:00Z, shown in `offsetSeconds` (nil: UTC) in the dialect's instant style.
    case instant(Int64, offsetSeconds: Int32?)
    case blob([UInt8])
}

/// Encoding of single fields. Each `write…` puts the separator before the field when it is not the row's
/// first. Text, blob and integer writers return why a cell was changed or left out, for the export report;
/// nil when it was written as it is.
extension CSVFileWriter {
    public func writeHeader(_ names: [String]) throws {
        try writeRow(names.map { .text($0) })
    }

    public func writeRow(_ fields: [CSVField]) throws {
        for field in fields {
            switch field {
            case .null: try writeNull()
            case .integer(let value): try writeInteger(value)
            case .real(let value): try writeReal(value)
            case .text(let value): try writeText(value)
            case .instant(let seconds, let offset): try writeInstant(seconds, offsetSeconds: offset)
            case .blob(let bytes): try bytes.withUnsafeBytes { _ = try writeBlob($0) }
            }
        }
        try endRow()
    }

    /// NULL: nothing between the separators (an empty text is written as `""`).
    public func writeNull() throws { try beginField() }

    @discardableResult public func writeInteger(_ value: Int64) throws -> CSVCellAdjustment.Reason? {
        try beginField()
        try reserve(20)
        if value < 0 { put(UInt8(ascii: "-")) }
        advance(CSVNumberFormatting.writeInteger(value.magnitude, into: buffer + used))
        // Spreadsheets keep 15 significant digits: 3881668921642059901 shows as 3.88166892164206E+18.
        guard dialect.reportsImpreciseIntegers, value.magnitude > 999_999_999_999_999 else { return nil }
        return .integerBeyondSpreadsheetPrecision
    }

    /// See `CSVNumberFormatting`: shortest round-trip digits, no exponent for ordinary magnitudes.
    public func writeReal(_ value: Double) throws {
        try beginField()
        try reserve(CSVNumberFormatting.maximumLength)
        advance(CSVNumberFormatting.write(value, into: buffer + used))
    }

    /// An instant in the dialect's style, shown in `offsetSeconds` (nil: UTC).
    public func writeInstant(_ utcSeconds: Int64, offsetSeconds: Int32?) throws {
        try writeInstant(utcSeconds, fraction: UnsafeRawBufferPointer(start: nil, count: 0), offset: offsetSeconds)
    }

    /// `fraction` is the `.18` of a database instant, kept as written.
    func writeInstant(_ utcSeconds: Int64, fraction: UnsafeRawBufferPointer, offset: Int32?) throws {
        try beginField()
        try reserve(CSVInstantText.maximumLength)
        advance(
            CSVInstantText.write(
                seconds: utcSeconds, fraction: fraction, offset: offset, style: dialect.instants, into: buffer + used))
    }

    @discardableResult public func writeText(_ text: String) throws -> CSVCellAdjustment.Reason? {
        var copy = text
        return try copy.withUTF8 { try writeText(UnsafeRawBufferPointer($0)) }
    }

    /// Quoted only when needed (see `CSVDialect`); quotes inside are doubled.
    @discardableResult func writeText(_ bytes: UnsafeRawBufferPointer) throws -> CSVCellAdjustment.Reason? {
        try beginField()
        let guarded = dialect.guardsFormulas && CSVFormulaGuard.needsGuard(bytes)
        if let limit = dialect.maximumCellLength, bytes.count >= limit,
            Self.utf16Length(bytes) + (guarded ? 1 : 0) > limit
        {
            return .tooLongForSpreadsheet
        }
        let quoted = Self.needsQuotes(bytes, separator: dialect.separator)
        try reserve(2)
        if quoted { put(UInt8(ascii: "\"")) }
        if guarded { put(UInt8(ascii: "'")) }
        if quoted {
            try appendDoublingQuotes(bytes)
            try reserve(1)
            put(UInt8(ascii: "\""))
        } else {
            try append(bytes)
        }
        return guarded ? .formulaGuarded : nil
    }

    /// Base64 or nothing, as the dialect says.
    @discardableResult public func writeBlob(_ bytes: UnsafeRawBufferPointer) throws -> CSVCellAdjustment.Reason? {
        try beginField()
        guard dialect.blobs == .base64 else { return .blobOmitted }
        if bytes.isEmpty {
            // An empty blob is not NULL: written as an empty text is.
            try reserve(2)
            put(UInt8(ascii: "\""))
            put(UInt8(ascii: "\""))
            return .blobAsBase64
        }
        try appendBase64(bytes)
        return .blobAsBase64
    }

    /// A blob of `count` bytes too large to hold at once (a document of hundreds of megabytes), encoded as it
    /// is read: `read` fills the buffer with the blob's bytes from the offset it is given.
    @discardableResult public func writeBlob(
        count: Int, read: (UnsafeMutableRawBufferPointer, Int) throws -> Void
    ) throws -> CSVCellAdjustment.Reason? {
        guard count > 0 else { return try writeBlob(UnsafeRawBufferPointer(start: nil, count: 0)) }
        try beginField()
        guard dialect.blobs == .base64 else { return .blobOmitted }
        // A multiple of 3, so only the last piece can need padding.
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 3 * 64 * 1024, alignment: 1)
        defer { piece.deallocate() }
        var offset = 0
        while offset < count {
            let slice = UnsafeMutableRawBufferPointer(rebasing: piece[0..<min(piece.count, count - offset)])
            try read(slice, offset)
            try appendBase64(UnsafeRawBufferPointer(slice))
            offset += slice.count
        }
        return .blobAsBase64
    }

    /// Base64 of `bytes`, padded at the end. No base64 character needs quoting.
    private func appendBase64(_ bytes: UnsafeRawBufferPointer) throws {
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let group =
                UInt32(bytes[index]) << 16 | (count > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                | (count > 2 ? UInt32(bytes[index + 2]) : 0)
            try reserve(4)
            put(Self.base64Alphabet[Int(group >> 18 & 63)])
            put(Self.base64Alphabet[Int(group >> 12 & 63)])
            put(count > 1 ? Self.base64Alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            put(count > 2 ? Self.base64Alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
    }

    // MARK: - Helpers

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    @inline(__always) private func beginField() throws {
        try ensureWriting()
        if fieldsInRow > 0 {
            try reserve(1)
            put(dialect.separator)
        }
        fieldsInRow += 1
    }

    @inline(__always) private func advance(_ count: Int) {
        used += count
        byteCount += count
    }

    private func appendDoublingQuotes(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, 0x22, bytes.count - start) else {
                try append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                return
            }
            let quote = UnsafeRawPointer(found) - base
            // The segment up to and including the quote, then the quote once more.
            try append(UnsafeRawBufferPointer(rebasing: bytes[start...quote]))
            try reserve(1)
            put(0x22)
            start = quote + 1
        }
    }

    /// RFC 4180's reasons (separator, quote, CR, LF), plus leading or trailing blanks, which some readers trim
    /// from unquoted fields, plus the empty text, which unquoted would read as NULL.
    static func needsQuotes(_ bytes: UnsafeRawBufferPointer, separator: UInt8) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return true }
        for byte in bytes where byte == separator || byte == 0x22 || byte == 0x0A || byte == 0x0D { return true }
        return false
    }

    /// Characters as Excel counts them: UTF-16 units (a 4-byte UTF-8 sequence is two).
    static func utf16Length(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += byte >= 0xF0 ? 2 : 1 }
        return count
    }
}
