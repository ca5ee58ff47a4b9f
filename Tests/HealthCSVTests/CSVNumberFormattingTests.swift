import Foundation
import HealthTestSupport
import Testing

@testable import HealthCSV

/// REAL values as CSV text: exact round trip, shortest digits, no exponent for ordinary magnitudes.
struct CSVNumberFormattingTests {
    @Test func writesOrdinaryValuesPositionally() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "-0"), (1, "1"), (-7, "-7"), (70.5, "70.5"), (0.1, "0.1"), (-0.25, "-0.25"),
            (1e-05, "0.00001"), (0.0001, "0.0001"), (12_345_678, "12345678"), (122.0, "122"),
            (23.67421706540093, "23.67421706540093"), (101.829, "101.829"), (0.3, "0.3"),
            (0.1 + 0.2, "0.30000000000000004"),
            (52.510744, "52.510744"), (13.355198, "13.355198"), (1e15, "1000000000000000"),
            (9_007_199_254_740_992, "9007199254740992"), (9_007_199_254_740_994, "9007199254740994"),
            (1e16, "10000000000000000"), (1.2345678e16, "12345678000000000"), (1e20, "100000000000000000000"),
            (1.2345678901234568e20, "123456789012345680000"), (1e-15, "0.000000000000001"),
            (1.5e-15, "0.0000000000000015"), (123.456e-10, "0.0000000123456"),
            // Absurd magnitudes keep an exponent.
            (1e21, "1e+21"), (1.5e21, "1.5e+21"), (-2.5e300, "-2.5e+300"), (9.9e-16, "9.9e-16"), (1e-16, "1e-16"),
            (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"), (Double.leastNonzeroMagnitude, "5e-324"),
            (Double.leastNormalMagnitude, "2.2250738585072014e-308"),
            // No CSV form: empty.
            (.nan, ""), (.infinity, ""), (-.infinity, ""),
        ]
        for (value, expected) in cases { #expect(CSVNumberFormatting.string(value) == expected, "\(value)") }
    }

    /// The properties every finite value must have.
    static func check(_ value: Double) -> String? {
        let text = CSVNumberFormatting.string(value)
        guard let back = Double(text), back.bitPattern == value.bitPattern else {
            return "\(value) → \(text) reads back differently"
        }
        let magnitude = value.magnitude
        if text.contains("e") != (magnitude != 0 && (magnitude >= 1e21 || magnitude < 1e-15)) {
            return "\(value) → \(text): exponent where none belongs, or none where it does"
        }
        if text.hasSuffix(".0") || (text.contains(".") && !text.contains("e") && text.hasSuffix("0")) {
            return "\(value) → \(text): trailing zero"
        }
        // Shortest: as many significant digits as Swift's own shortest representation.
        let significant = { (s: String) in
            s.split(separator: "e")[0].filter(\.isNumber).drop { $0 == "0" }.reversed().drop { $0 == "0" }.count
        }
        if significant(text) != significant(magnitude.description) { return "\(value) → \(text): not shortest" }
        if !text.allSatisfy({ "-0123456789.e+".contains($0) }) { return "\(value) → \(text): unexpected character" }
        return nil
    }

    @Test func everyKindOfDoubleRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        var failures: [String] = []
        func probe(_ value: Double) {
            guard value.isFinite, failures.count < 10, let failure = Self.check(value) else { return }
            failures.append(failure)
        }
        for _ in 0..<100_000 {
            // Any bit pattern: every exponent, subnormals included.
            probe(Double(bitPattern: generator.next()))
            // Values like the export's: up to 6 decimals, up to 10^7.
            let decimals = Double.random(in: 0...6, using: &generator).rounded(.down)
            probe((Double.random(in: -1e7...1e7, using: &generator) * pow(10, decimals)).rounded() / pow(10, decimals))
            // Around the boundaries of the positional range and of 2^53.
            probe(Double.random(in: 1e-16...1e-14, using: &generator))
            probe(Double.random(in: 1e20...1e22, using: &generator))
            probe(Double.random(in: 9.0e15...9.1e15, using: &generator).rounded())
        }
        for exponent in -330...310 {
            for mantissa in [1.0, 9.999999999999999, 5.0, 1.0000000000000002] {
                probe(mantissa * pow(10, Double(exponent)))
            }
        }
        for neighbour in [1e21, 1e-15, 9_007_199_254_740_992, 1] {
            probe(neighbour.nextUp)
            probe(neighbour.nextDown)
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// An independent reader: Python's float() must read each text back to the same bits.
    @Test(.enabled(if: Condition.python3, "python3 is not on PATH"))
    func pythonReadsTheSameDoubles() throws {
        let python = try #require(Fixtures.executable("python3"))
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [1e-05, 0.1, 70.5, 12_345_678, 1e21, 9.9e-16, -0.0, .leastNonzeroMagnitude]
        while values.count < 20_000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { values.append(value) }
            values.append(Double(Int.random(in: -10_000_000...10_000_000, using: &generator)) / 1000)
        }
        let lines = values.map { String($0.bitPattern) + " " + CSVNumberFormatting.string($0) }.joined(separator: "\n")
        let script = """
            import struct, sys
            bad = [l for l in sys.stdin.read().split("\\n")
                   if struct.pack("<d", float(l.split()[1])) != struct.pack("<Q", int(l.split()[0]))]
            print(len(bad), bad[:5])
            """
        let result = try ProcessRunner.run(python, ["-c", script], input: lines)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("0 []"), "\(result.output)")
    }
}
