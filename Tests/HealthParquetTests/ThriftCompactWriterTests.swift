import Testing

@testable import HealthParquet

/// The compact protocol's bytes, checked by hand against the Thrift compact protocol specification.
@Suite struct ThriftCompactWriterTests {
    func varint(_ value: UInt64) -> [UInt8] {
        var writer = ThriftCompactWriter()
        writer.writeVarint(value)
        return writer.bytes
    }

    @Test func varintsAreSevenBitsAByteLowestFirst() {
        #expect(varint(0) == [0x00])
        #expect(varint(1) == [0x01])
        #expect(varint(127) == [0x7F])
        #expect(varint(128) == [0x80, 0x01])
        #expect(varint(300) == [0xAC, 0x02])
        #expect(varint(UInt64(UInt32.max)) == [0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
    }

    @Test func zigzagInterleavesSigns() {
        #expect(ThriftCompactWriter.zigzag(0) == 0)
        #expect(ThriftCompactWriter.zigzag(-1) == 1)
        #expect(ThriftCompactWriter.zigzag(1) == 2)
        #expect(ThriftCompactWriter.zigzag(-2) == 3)
        #expect(ThriftCompactWriter.zigzag(Int64(Int32.max)) == 4_294_967_294)
        #expect(ThriftCompactWriter.zigzag(Int64(Int32.min)) == 4_294_967_295)
        #expect(ThriftCompactWriter.zigzag(Int64.min) == UInt64.max)
    }

    @Test func shortFieldHeadersCarryTheIdDelta() {
        var writer = ThriftCompactWriter()
        writer.writeI32(1, 0)  // delta 1, type 5: 0x15, value zigzag(0)
        writer.writeI32(3, -1)  // delta 2: 0x25, zigzag(-1) = 1
        writer.writeI64(18, 150)  // delta 15, type 6: 0xF6, zigzag(150) = 300 = AC 02
        #expect(writer.bytes == [0x15, 0x00, 0x25, 0x01, 0xF6, 0xAC, 0x02])
    }

    @Test func longFieldHeadersCarryTheIdAsAZigzagVarint() {
        var writer = ThriftCompactWriter()
        writer.writeI32(2, 1)
        writer.writeI32(20, 1)  // delta 18 > 15: type byte 0x05, then zigzag(20) = 40
        #expect(writer.bytes == [0x25, 0x02, 0x05, 0x28, 0x02])
    }

    @Test func boolsAreTheirTypeCode() {
        var writer = ThriftCompactWriter()
        writer.writeBool(1, true)
        writer.writeBool(2, false)
        #expect(writer.bytes == [0x11, 0x12])
    }

    @Test func binaryIsALengthAndTheBytes() {
        var writer = ThriftCompactWriter()
        writer.writeString(4, "ab")
        #expect(writer.bytes == [0x48, 0x02, 0x61, 0x62])
    }

    @Test func listHeadersHoldSmallSizesInOneByte() {
        var writer = ThriftCompactWriter()
        writer.beginList(1, of: .i32, count: 3)
        #expect(writer.bytes == [0x19, 0x35])
        var long = ThriftCompactWriter()
        long.beginList(1, of: .structure, count: 20)
        #expect(long.bytes == [0x19, 0xFC, 0x14])
    }

    @Test func nestedStructsRestartTheirFieldIds() {
        var writer = ThriftCompactWriter()
        writer.writeI32(3, 7)  // 0x35, 14
        writer.beginStruct(5)  // delta 2, struct: 0x2C
        writer.writeI32(1, 1)  // inside, delta from 0: 0x15, 2
        writer.endStruct()  // 0x00
        writer.writeI32(6, 2)  // delta from 5 again: 0x15, 4
        #expect(writer.finish() == [0x35, 0x0E, 0x2C, 0x15, 0x02, 0x00, 0x15, 0x04, 0x00])
    }
}
