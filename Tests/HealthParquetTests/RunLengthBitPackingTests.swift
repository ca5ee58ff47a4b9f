import Testing

@testable import HealthParquet

/// The RLE / bit-packing hybrid, against the examples and rules of the Parquet encodings specification.
@Suite struct RunLengthBitPackingTests {
    func encode(_ values: [UInt32], width: Int) -> [UInt8] {
        var output: [UInt8] = []
        RunLengthBitPacking.encode(values, bitWidth: width, into: &output)
        return output
    }

    @Test func bitPacksTheSpecificationsExample() {
        // 0…7 at 3 bits: 10001000 11000110 11111010, behind the header of one group (1 << 1 | 1).
        #expect(encode([0, 1, 2, 3, 4, 5, 6, 7], width: 3) == [0x03, 0x88, 0xC6, 0xFA])
    }

    @Test func writesLongRepeatsAsRuns() {
        // Ten 1s at width 1: header 10 << 1, the value in one byte.
        #expect(encode(Array(repeating: 1, count: 10), width: 1) == [0x14, 0x01])
        // A value of width 9 takes two bytes.
        #expect(encode(Array(repeating: 300, count: 8), width: 9) == [0x10, 0x2C, 0x01])
    }

    @Test func completesTheLiteralGroupBeforeARun() {
        // 1, 0, then twenty 1s: six of them finish the group of eight (bits 1,0,1,1,1,1,1,1 → 0xFD), the
        // other fourteen are a run.
        let values: [UInt32] = [1, 0] + Array(repeating: 1, count: 20)
        #expect(encode(values, width: 1) == [0x03, 0xFD, 0x1C, 0x01])
    }

    @Test func padsTheLastGroupWithZeros() {
        // 1, 0, 1 at width 1: one group, bits 101 and five zeros.
        #expect(encode([1, 0, 1], width: 1) == [0x03, 0x05])
    }

    @Test func bitWidthIsTheBitsOfTheLargestValue() {
        #expect(RunLengthBitPacking.bitWidth(forMaximum: 0) == 0)
        #expect(RunLengthBitPacking.bitWidth(forMaximum: 1) == 1)
        #expect(RunLengthBitPacking.bitWidth(forMaximum: 3) == 2)
        #expect(RunLengthBitPacking.bitWidth(forMaximum: 4) == 3)
        #expect(RunLengthBitPacking.bitWidth(forMaximum: 255) == 8)
    }
}
