import HealthModel

/// One file (or folder) listed in a zip's central directory.
///
/// Sizes and CRC always come from the central directory, never from the local header: Apple's exporter sets
/// the data-descriptor flag (bit 3), so its local headers carry a CRC and compressed size of 0.
public struct ZipEntry: Sendable {
    /// The path inside the zip, e.g. `apple_health_export/export.xml`. Decoded as UTF-8 when the bytes are valid
    /// UTF-8 (whether or not flag bit 11 says so: macOS tools often leave it unset), else as code page 437.
    public let name: String
    /// 0 stored, 8 deflate; anything else is rejected when the entry is opened.
    public let method: UInt16
    /// The general-purpose flags: bit 0 encrypted, bit 3 data descriptor, bit 11 UTF-8 name.
    public let flags: UInt16
    public let crc32: UInt32
    public let compressedSize: UInt64
    public let uncompressedSize: UInt64
    /// Where the entry's local header starts; its data follows the local header's own name and extra field.
    public let localHeaderOffset: UInt64

    public var isDirectory: Bool { name.hasSuffix("/") }

    /// Encrypted entries cannot be read; Health never writes them, but a re-zipped export might have them.
    public var isEncrypted: Bool { flags & 0x0001 != 0 }
}

extension ZipEntry {
    /// Decodes a raw zip file name.
    ///
    /// Valid UTF-8 wins even without flag bit 11, because macOS and Apple's exporter write UTF-8 names without
    /// always setting it (`导出.xml`). Bytes that are not UTF-8 can only be the zip default, code page 437; a
    /// name that claims UTF-8 but is not valid falls back to it too, so no name is ever lost.
    static func decodeName(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            scalars.append(byte < 0x80 ? Unicode.Scalar(byte) : codePage437High[Int(byte) - 0x80])
        }
        return String(scalars)
    }

    /// Code page 437 bytes 0x80...0xFF (the lower half is ASCII).
    private static let codePage437High: [Unicode.Scalar] = Array(
        ("ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌"
            + "█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}").unicodeScalars)
}

/// Little-endian field access for zip records.
///
/// Every caller checks the record's length first, so these reads stay in bounds; keeping the check at the
/// record level (not per field) is what makes the parsing code readable.
extension Array where Element == UInt8 {
    func littleEndian16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    func littleEndian32(at offset: Int) -> UInt32 {
        UInt32(littleEndian16(at: offset)) | UInt32(littleEndian16(at: offset + 2)) << 16
    }

    func littleEndian64(at offset: Int) -> UInt64 {
        UInt64(littleEndian32(at: offset)) | UInt64(littleEndian32(at: offset + 4)) << 32
    }

    /// Whether the four bytes at `offset` are the zip signature `value` (stored little-endian, "PK..").
    func hasSignature(_ value: UInt32, at offset: Int) -> Bool {
        offset >= 0 && offset <= count - 4 && littleEndian32(at: offset) == value
    }
}

/// The record signatures of the zip format (APPNOTE.TXT §4.3).
enum ZipSignature {
    static let localHeader: UInt32 = 0x0403_4b50
    static let centralHeader: UInt32 = 0x0201_4b50
    static let endOfCentralDirectory: UInt32 = 0x0605_4b50
    static let zip64EndOfCentralDirectory: UInt32 = 0x0606_4b50
    static let zip64Locator: UInt32 = 0x0706_4b50
}

extension ImportError {
    /// A zip whose structure is damaged: nothing the user can fix but a new export.
    static func zipCorrupt(_ detail: String, file: String, entry: String? = nil) -> ImportError {
        ImportError(.input, detail, file: file, entry: entry, hint: "re-export from the Health app")
    }

    /// A zip that ends too early: the usual result of an interrupted copy or AirDrop.
    static func zipCutShort(_ detail: String, file: String, entry: String? = nil) -> ImportError {
        ImportError(
            .input, "the zip was cut short " + detail, file: file, entry: entry,
            hint: "the file is incomplete; copy or re-export it again")
    }
}
