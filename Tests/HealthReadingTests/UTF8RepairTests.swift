import Foundation
import Testing

@testable import HealthModel
@testable import HealthReading

struct UTF8RepairTests {
    func repair(_ bytes: [UInt8], chunk: Int) throws -> ([UInt8], Int) {
        var filter = UTF8Repair()
        var output: [UInt8] = []
        var input = bytes
        var start = 0
        while start < input.count {
            let end = min(start + chunk, input.count)
            try input.withUnsafeMutableBytes { raw in
                try filter.process(UnsafeMutableRawBufferPointer(rebasing: raw[start..<end])) {
                    output.append(contentsOf: $0)
                }
            }
            start = end
        }
        try filter.finish { output.append(contentsOf: $0) }
        return (output, filter.replacedBytes)
    }

    @Test(arguments: [1, 2, 3, 5, 64])
    func validTextPassesUnchangedAtAnyChunkSize(chunk: Int) throws {
        let text = Array("ascii, é, ’, 导出, 😀, mL/min·kg".utf8)
        let (output, replaced) = try repair(text, chunk: chunk)
        #expect(output == text)
        #expect(replaced == 0)
    }

    /// Random bytes: the result is valid UTF-8 of the same length, the same at every chunk size, and equal to
    /// the input wherever the input was valid (checked with the standard library's own decoder).
    @Test(arguments: 0..<20)
    func randomBytesBecomeValidUTF8(seed: UInt64) throws {
        var state = seed &+ 1
        let bytes = (0..<300).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let (reference, _) = try repair(bytes, chunk: 1 << 20)
        #expect(reference.count == bytes.count)
        #expect(String(validating: reference, as: UTF8.self) != nil, "seed \(seed)")
        for chunk in [1, 2, 3, 7] {
            #expect(try repair(bytes, chunk: chunk).0 == reference, "seed \(seed) chunk \(chunk)")
        }
        if String(validating: bytes, as: UTF8.self) != nil { #expect(reference == bytes) }
    }

    @Test func overlongSurrogateAndOutOfRangeFormsAreReplaced() throws {
        for bad: [UInt8] in [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8],
        ] {
            let (output, replaced) = try repair(bad, chunk: 1)
            #expect(output.allSatisfy { $0 == UInt8(ascii: "?") }, "\(bad)")
            #expect(replaced == bad.count)
        }
    }
}
