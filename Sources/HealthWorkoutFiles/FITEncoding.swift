/// The parts of Garmin's FIT protocol (FIT SDK, "FIT Protocol" and Profile.xlsx, profile 21.x) a writer needs:
/// the CRC, the base types, and definition and data messages. Little-endian throughout; no developer fields,
/// no compressed timestamps, so protocol version 1.0 suffices.
enum FIT {
    /// Seconds from 1970-01-01 to FIT's epoch, 1989-12-31T00:00:00Z.
    static let epochOffset: Int64 = 631_065_600

    /// The 14-byte file header's fixed bytes: its size, protocol 1.0, profile 21.32.
    static let headerSize: UInt8 = 14
    static let protocolVersion: UInt8 = 0x10
    static let profileVersion: UInt16 = 2132

    /// FIT's CRC-16: polynomial 0x8005 reflected (0xA001), initial value 0, no final XOR (CRC-16/ARC), over the
    /// header's first 12 bytes and over the whole file before its last two.
    struct CRC {
        private(set) var value: UInt16 = 0

        mutating func update(_ byte: UInt8) {
            var crc = value ^ UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
            value = crc
        }

        mutating func update(_ bytes: UnsafeRawBufferPointer) { for byte in bytes { update(byte) } }
    }

    /// A base type: its number (Profile.xlsx, "Base Type") and the value that means "no value".
    enum BaseType: UInt8 {
        case enumeration = 0x00
        case uint8 = 0x02
        case uint16 = 0x84
        case sint32 = 0x85
        case uint32 = 0x86

        var size: UInt8 {
            switch self {
            case .enumeration, .uint8: return 1
            case .uint16: return 2
            case .sint32, .uint32: return 4
            }
        }

        var invalid: UInt32 {
            switch self {
            case .enumeration, .uint8: return 0xFF
            case .uint16: return 0xFFFF
            case .sint32: return 0x7FFF_FFFF
            case .uint32: return 0xFFFF_FFFF
            }
        }
    }

    struct Field {
        var number: UInt8
        var type: BaseType
    }

    /// A message's layout: its global number in the profile, the local type its data messages refer to, and its
    /// fields in the order every data message writes their values.
    struct Definition {
        var local: UInt8
        var global: UInt16
        var fields: [Field]

        /// The definition message: header 0x40 | local type, reserved, little-endian, global number, fields.
        var bytes: [UInt8] {
            var bytes: [UInt8] = [0x40 | local, 0, 0, UInt8(global & 0xFF), UInt8(global >> 8), UInt8(fields.count)]
            for field in fields { bytes += [field.number, field.type.size, field.type.rawValue] }
            return bytes
        }

        /// A data message of `values` (nil: the type's invalid value), one per field in order.
        func message(_ values: [Int64?]) -> [UInt8] {
            precondition(values.count == fields.count, "a FIT message needs one value per field")
            var bytes: [UInt8] = [local]
            for (field, value) in zip(fields, values) {
                let raw: UInt32
                if let value, Self.fits(value, field.type) {
                    raw = UInt32(truncatingIfNeeded: value)
                } else {
                    raw = field.type.invalid
                }
                for index in 0..<Int(field.type.size) { bytes.append(UInt8(truncatingIfNeeded: raw >> (8 * index))) }
            }
            return bytes
        }

        /// A value that its field cannot hold (or that is the field's "no value") is written as no value.
        private static func fits(_ value: Int64, _ type: BaseType) -> Bool {
            switch type {
            case .enumeration, .uint8, .uint16, .uint32: return value >= 0 && value < Int64(type.invalid)
            case .sint32: return value > Int64(Int32.min) && value < Int64(Int32.max)
            }
        }
    }

    /// FIT's `date_time`: seconds since its epoch.
    static func time(_ unixSeconds: Int64) -> Int64 { unixSeconds - epochOffset }

    /// Degrees as semicircles (2^31 per 180°).
    static func semicircles(_ degrees: Double) -> Int64 { Int64((degrees * 2_147_483_648 / 180).rounded()) }

    /// A value with the profile's scale and offset, rounded: stored = (value + offset) × scale.
    static func scaled(_ value: Double?, scale: Double, offset: Double = 0) -> Int64? {
        guard let value, value.isFinite else { return nil }
        return Int64(((value + offset) * scale).rounded())
    }
}
