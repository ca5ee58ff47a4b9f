/// Parquet's RLE / bit-packing hybrid, used for definition levels and dictionary indices: runs of one repeated
/// value (header `count << 1`, the value in ⌈bitWidth/8⌉ bytes) and groups of eight values packed `bitWidth`
/// bits each, lowest bit first (header `groups << 1 | 1`).
package enum RunLengthBitPacking {
    /// Bits needed for values up to `maximum` (0 → 0).
    package static func bitWidth(forMaximum maximum: UInt32) -> Int {
        maximum == 0 ? 0 : 32 - maximum.leadingZeroBitCount
    }

    /// Appends the encoding of `values` to `output`. A run of eight or more equal values is written as a run
    /// once the values before it fill whole groups of eight; everything else is bit-packed, the last group
    /// padded with zeros (readers stop at the page's value count).
    package static func encode<Values: RandomAccessCollection>(
        _ values: Values, bitWidth: Int, into output: inout [UInt8]
    ) where Values.Element: BinaryInteger, Values.Index == Int {
        var literalStart = values.startIndex
        var index = values.startIndex
        let end = values.endIndex
        while index < end {
            let value = values[index]
            var runEnd = index + 1
            while runEnd < end && values[runEnd] == value { runEnd += 1 }
            // Values borrowed from the run complete the pending literal group.
            let pending = (index - literalStart) % 8
            let borrowed = pending == 0 ? 0 : 8 - pending
            if runEnd - index - borrowed >= 8 {
                let runStart = index + borrowed
                if runStart > literalStart {
                    packLiterals(values[literalStart..<runStart], bitWidth: bitWidth, into: &output)
                }
                writeRun(UInt64(value), count: runEnd - runStart, bitWidth: bitWidth, into: &output)
                literalStart = runEnd
            }
            index = runEnd
        }
        if literalStart < end { packLiterals(values[literalStart..<end], bitWidth: bitWidth, into: &output) }
    }

    static func writeRun(_ value: UInt64, count: Int, bitWidth: Int, into output: inout [UInt8]) {
        appendVarint(UInt64(count) << 1, to: &output)
        for byte in 0..<((bitWidth + 7) / 8) { output.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
    }

    static func packLiterals<Values: RandomAccessCollection>(
        _ values: Values, bitWidth: Int, into output: inout [UInt8]
    ) where Values.Element: BinaryInteger {
        let groups = (values.count + 7) / 8
        appendVarint(UInt64(groups) << 1 | 1, to: &output)
        var accumulator: UInt64 = 0
        var bits = 0
        var written = 0
        for value in values {
            accumulator |= UInt64(value) << bits
            bits += bitWidth
            while bits >= 8 {
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bits -= 8
            }
            written += 1
        }
        // Zeros up to the end of the last group of eight.
        for _ in written..<(groups * 8) {
            bits += bitWidth
            while bits >= 8 {
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { output.append(UInt8(truncatingIfNeeded: accumulator)) }
    }

    static func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }
}
