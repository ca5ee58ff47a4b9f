/// The Thrift compact protocol, write side only: what a Parquet footer and page header need (structs, i32, i64,
/// binary, bool, lists). Field headers carry the difference from the previous field id when it is 1…15 (one
/// byte), else the type and the id as a zigzag varint; integers are zigzag varints; a struct ends with a 0 byte.
package struct ThriftCompactWriter {
    /// The compact protocol's type codes.
    package enum FieldType: UInt8 {
        case booleanTrue = 1, booleanFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7, binary = 8
        case list = 9, set = 10, map = 11, structure = 12
    }

    package private(set) var bytes: [UInt8] = []
    private var lastFieldID: Int16 = 0
    /// The last field id of each enclosing struct, restored when a nested struct ends.
    private var enclosingFieldIDs: [Int16] = []

    package init() {}

    // MARK: Primitives

    /// Unsigned LEB128: seven bits a byte, lowest first, the high bit set on every byte but the last.
    package mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Zigzag maps signed to unsigned so that small magnitudes stay small: 0, -1, 1, -2 → 0, 1, 2, 3.
    package static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    // MARK: Fields

    package mutating func writeFieldHeader(_ id: Int16, _ type: FieldType) {
        let delta = Int(id) - Int(lastFieldID)
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            writeVarint(Self.zigzag(Int64(id)))
        }
        lastFieldID = id
    }

    package mutating func writeI32(_ id: Int16, _ value: Int32) {
        writeFieldHeader(id, .i32)
        writeVarint(Self.zigzag(Int64(value)))
    }

    package mutating func writeI64(_ id: Int16, _ value: Int64) {
        writeFieldHeader(id, .i64)
        writeVarint(Self.zigzag(value))
    }

    /// A bool field is its header alone: the type code says true or false.
    package mutating func writeBool(_ id: Int16, _ value: Bool) {
        writeFieldHeader(id, value ? .booleanTrue : .booleanFalse)
    }

    package mutating func writeBinary(_ id: Int16, _ value: [UInt8]) {
        writeFieldHeader(id, .binary)
        writeBinaryValue(value)
    }

    package mutating func writeString(_ id: Int16, _ value: String) {
        writeBinary(id, Array(value.utf8))
    }

    package mutating func writeBinaryValue(_ value: [UInt8]) {
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    // MARK: Structs and lists

    /// Opens a struct-valued field; `endStruct` closes it.
    package mutating func beginStruct(_ id: Int16) {
        writeFieldHeader(id, .structure)
        beginStructValue()
    }

    /// Opens a struct that is a list element (no field header).
    package mutating func beginStructValue() {
        enclosingFieldIDs.append(lastFieldID)
        lastFieldID = 0
    }

    package mutating func endStruct() {
        bytes.append(0)
        lastFieldID = enclosingFieldIDs.popLast() ?? 0
    }

    /// The header of a list-valued field: size and element type in one byte below 15 elements.
    package mutating func beginList(_ id: Int16, of elementType: FieldType, count: Int) {
        writeFieldHeader(id, .list)
        if count < 15 {
            bytes.append(UInt8(count) << 4 | elementType.rawValue)
        } else {
            bytes.append(0xF0 | elementType.rawValue)
            writeVarint(UInt64(count))
        }
    }

    package mutating func writeI32Element(_ value: Int32) { writeVarint(Self.zigzag(Int64(value))) }

    /// Ends the outermost struct (a Parquet footer or page header is one struct).
    package mutating func finish() -> [UInt8] {
        bytes.append(0)
        defer { bytes = [] }
        return bytes
    }
}
