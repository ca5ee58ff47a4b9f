import Testing

@testable import HealthReading

/// `ByteScan` against a byte-at-a-time reference, from every start offset near either end (the word loop and the
/// tail loop both), on buffers where the bytes sought sit next to their neighbours in value (0x01 after 0x00 is
/// where the usual zero-byte test errs) and on random ones.
struct ByteScanTests {
    /// Bytes that stress the word test: line feeds and markup, their neighbours, zero, 0x7F/0x80/0xFF.
    static let tricky: [UInt8] = [0x0A, 0x09, 0x0B, 0x00, 0x01, 0x22, 0x27, 0x3C, 0x3E, 0x7F, 0x80, 0xFF, 0x41]

    static func buffers() -> [[UInt8]] {
        var generator = SystemRandomNumberGenerator()
        var result: [[UInt8]] = [[], [0x0A], Array(repeating: 0x41, count: 40)]
        for length in [7, 8, 9, 15, 16, 17, 63, 64, 65, 200] {
            result.append((0..<length).map { _ in tricky.randomElement(using: &generator) ?? 0 })
            result.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            // Plain text with one line feed, anywhere in a word or in the tail.
            var plain = [UInt8](repeating: 0x61, count: length)
            plain[Int.random(in: 0..<length, using: &generator)] = 0x0A
            result.append(plain)
        }
        // Past 255 words, where the lanes are summed and start again; all line feeds: every lane at its most.
        result.append([UInt8](repeating: 0x0A, count: 8 * 255 * 2 + 13))
        result.append((0..<5_000).map { _ in tricky.randomElement(using: &generator) ?? 0 })
        return result
    }

    /// Offsets near both ends of a buffer of `count` bytes: every length of the tail loop, from either side.
    static func offsets(_ count: Int) -> [Int] {
        Array(Set(Array(0...min(count, 17)) + Array(max(0, count - 17)...count))).sorted()
    }

    @Test func countsEveryByteValueAsAByteAtATimeLoopDoes() {
        var mismatches: [String] = []
        var checked = 0
        for bytes in Self.buffers() {
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for start in Self.offsets(bytes.count) {
                    for sought: UInt8 in [0x0A, 0x00, 0x01, 0x80, 0xFF] {
                        let expected = bytes[start...].filter { $0 == sought }.count
                        let counted = ByteScan.count(of: sought, in: base + start, bytes.count - start)
                        checked += 1
                        if counted != expected {
                            mismatches.append(
                                "\(sought) in \(bytes.count) bytes from \(start): \(counted), not \(expected)")
                        }
                    }
                }
            }
        }
        #expect(mismatches == [])
        #expect(checked > 2_000)
    }
}
