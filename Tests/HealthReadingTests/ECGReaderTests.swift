import Foundation
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthReading

/// The real ECG files, found next to the repository (`../shared`); absent in a fresh clone.
private let ecgRealFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/fixtures/real/hacktj23-ios16-ecg/electrocardiograms")
    .standardizedFileURL.path
private let ecgRealAvailable = FileManager.default.fileExists(atPath: ecgRealFolder)

/// A header as the exporter writes it in Japanese (labels localised, reference §8.1), with lines ending
/// in `ending`, followed by `samples`.
private func ecgJapaneseFile(samples: [String], ending: String = "\r\n", bom: Bool = true) -> [UInt8] {
    let lines = [
        "名前,山田 \"太郎\"",
        "生年月日,\"2006/06/12\"",
        "記録日,2023-03-04 20:55:07 +0900",
        "分類,洞調律",
        "症状,\"動悸, めまい\"",
        "ソフトウェアバージョン,1.90",
        "デバイス,\"Watch6,7\"",
        "サンプルレート,512ヘルツ",
        "",
        "",
        "誘導,第I誘導",
        "単位,µV",
        "",
    ]
    let text = (lines + samples).joined(separator: ending) + ending
    return (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
}

/// The number of sample lines, counted without the reader: lines made only of digits, a sign and one
/// decimal separator.
private func ecgCountNumericLines(_ text: String) -> Int {
    text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).filter { line in
        let body = line.hasPrefix("-") ? line.dropFirst() : line[...]
        return !body.isEmpty && body.allSatisfy { $0.isNumber || $0 == "." || $0 == "," }
    }.count
}

@Suite struct ECGReaderTests {
    @Test(
        .enabled(if: ecgRealAvailable, "../shared/fixtures is absent (fresh clone): real ECG files not checked"),
        arguments: [
            ("ecg_2023-03-04.csv", "2023-03-04 20:55:07 -0500", "Poor Recording", Float(-107.825), Float(-55.977)),
            ("ecg_2023-03-04_1.csv", "2023-03-04 20:57:45 -0500", "Inconclusive", Float(-39.801), Float(-162.089)),
            ("ecg_2023-03-04_2.csv", "2023-03-04 20:59:13 -0500", "Sinus Rhythm", Float(-40.944), Float(-37.575)),
        ])
    func readsTheRealFiles(name: String, recorded: String, classification: String, first: Float, last: Float)
        throws
    {
        let path = ecgRealFolder + "/" + name
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let recording = try ECGReader.read(fileName: name, bytes: bytes)

        #expect(recording.fileName == name)
        #expect(recording.samples.count == ecgCountNumericLines(String(decoding: bytes, as: UTF8.self)))
        #expect(recording.samples.count > 14_000)  // ~30 s at 512 Hz; a poor recording stops early
        #expect(abs((recording.samples.first ?? 0) - first) < 0.001)
        #expect(abs((recording.samples.last ?? 0) - last) < 0.001)
        #expect(recording.recordedDate == Timestamp.parse(recorded))
        #expect(recording.recordedDate != nil)
        #expect(recording.classification == classification)
        #expect(recording.symptoms == nil)
        #expect(recording.softwareVersion == "1.90")
        #expect(recording.device == "Watch6,7")
        #expect(recording.sampleRateHz == 512)
        #expect(recording.lead == "Lead I")
        #expect(recording.unit == "µV")
        #expect(recording.header.count == 10)
        #expect(recording.header.first?.label == "Name")
        #expect(recording.header.first?.value == "")
        #expect(recording.header[1].label == "Date of Birth")
        #expect(recording.header[1].value == "Jun 12, 2006")
        #expect(recording.header[7].value == "512 hertz")
    }

    @Test func readsAJapaneseHeaderWithDecimalCommasCRLFAndBOM() throws {
        let bytes = ecgJapaneseFile(samples: ["-265,868", "12,5", "0", "\"3,25\"", "−1,5", "7"])
        let recording = try ECGReader.read(fileName: "ecg_2023-03-04.csv", bytes: bytes)

        #expect(recording.samples == [-265.868, 12.5, 0, 3.25, -1.5, 7])
        #expect(recording.header.count == 10)
        #expect(recording.header[0].label == "名前")
        #expect(recording.header[0].value == "山田 \"太郎\"")
        #expect(recording.header[1].value == "2006/06/12")
        #expect(recording.header[2].label == "記録日")
        #expect(recording.recordedDate == Timestamp(seconds: 1_677_930_907, offsetSeconds: 9 * 3600))
        #expect(recording.classification == "洞調律")
        #expect(recording.symptoms == "動悸, めまい")
        #expect(recording.softwareVersion == "1.90")
        #expect(recording.device == "Watch6,7")
        #expect(recording.sampleRateHz == 512)
        #expect(recording.lead == "第I誘導")
        #expect(recording.unit == "µV")
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func lineEndingsDoNotMatter(ending: String) throws {
        let bytes = ecgJapaneseFile(samples: ["1.5", "-2.25", ""], ending: ending, bom: false)
        let recording = try ECGReader.read(fileName: "x.csv", bytes: bytes)
        #expect(recording.samples == [1.5, -2.25])
        #expect(recording.lead == "第I誘導")
        #expect(recording.header[0].label == "名前")
    }

    @Test func headerValuesAreReadByPosition() throws {
        let text = """
            N
            D,"Jan 1, 2000"
            R,2020-05-06 07:08:09 +0000
            C,Atrial Fibrillation
            S,Chest tightness,Dizziness
            V,1.51
            Dev,"Watch ""5"",1"
            Rate,"512,844 hertz"
            Lead,Lead I
            Unit,µV
            -1
            """
        let recording = try ECGReader.read(fileName: "x.csv", bytes: Array(text.utf8))
        #expect(recording.recordedDate == Timestamp(seconds: 1_588_748_889, offsetSeconds: 0))
        #expect(recording.classification == "Atrial Fibrillation")
        #expect(recording.symptoms == "Chest tightness,Dizziness")
        #expect(recording.softwareVersion == "1.51")
        #expect(recording.device == "Watch \"5\",1")
        #expect(recording.sampleRateHz == 512.844)
        #expect(recording.samples == [-1])
    }

    @Test func sampleRateTakesTheLeadingNumber() {
        #expect(ECGReader.leadingNumber("512 hertz") == 512)
        #expect(ECGReader.leadingNumber("512.844 hertz") == 512.844)
        #expect(ECGReader.leadingNumber("512ヘルツ") == 512)
        #expect(ECGReader.leadingNumber("512,844 Hz") == 512.844)
        #expect(ECGReader.leadingNumber("512. Hz") == 512)
        #expect(ECGReader.leadingNumber("hertz") == nil)
        #expect(ECGReader.leadingNumber("") == nil)
    }

    @Test func sampleValues() {
        func value(_ text: String) -> Float? {
            Array(text.utf8).withUnsafeBufferPointer { ECGReader.sampleValue($0) }
        }
        #expect(value("-107.825") == Float(-107.825))
        #expect(value("-265,868") == Float(-265.868))
        #expect(value(" 42 ") == 42)
        #expect(value("1.234,5") == 1234.5)
        #expect(value("1,234.5") == 1234.5)
        #expect(value("1,2,3") == nil)
        #expect(value("1.2.3") == nil)
        #expect(value("Lead,Lead I") == nil)
        #expect(value("nan") == nil)
        #expect(value("1e999") == nil)
        #expect(value("-") == nil)
        #expect(value("\"\"") == nil)
        #expect(value("") == nil)
    }

    /// The fast path for plain samples gives what the normalising path gives, on every line it takes.
    @Test func plainSamplesReadAsTheNormalisingPathReadsThem() {
        var generator = SplitMix64(state: 39)
        let alphabet = Array("-0123456789.,e+\"".utf8) + [0xE2, 0x88, 0x92]
        var compared = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...14, using: &generator)
            let line = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            line.withUnsafeBufferPointer { bytes in
                let expected = ECGReader.normalisedSampleValue(bytes, 0, bytes.count)
                let quoted = bytes.count >= 2 && bytes.first == UInt8(ascii: "\"") && bytes.last == UInt8(ascii: "\"")
                guard !quoted else { return }
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(ECGReader.sampleValue(bytes)?.bitPattern == expected?.bitPattern, "\(text)")
                if expected != nil { compared += 1 }
            }
        }
        #expect(compared > 1_000)  // the corpus holds many numbers, not only rejects
    }

    @Test func anUnparsableSampleLineIsAnErrorWithItsLine() throws {
        let bytes = ecgJapaneseFile(samples: ["1,5", "2,5", "x"])
        let error = try #require(throws: ImportError.self) { try ECGReader.read(fileName: "x.csv", bytes: bytes) }
        #expect(error.kind == .input)
        #expect(error.line == 16)
        #expect(error.message.contains("\"x\""))
    }

    @Test func aFileWithoutSamplesIsAnError() throws {
        let bytes = ecgJapaneseFile(samples: [])
        let error = try #require(throws: ImportError.self) { try ECGReader.read(fileName: "x.csv", bytes: bytes) }
        #expect(error.kind == .input)
        #expect(error.line == 13)
        #expect(throws: ImportError.self) { try ECGReader.read(fileName: "x.csv", bytes: []) }
        #expect(throws: ImportError.self) { try ECGReader.read(fileName: "x.csv", bytes: [0xEF, 0xBB, 0xBF]) }
    }

    @Test func truncatedFilesThrowOrKeepWhatIsThere() throws {
        let bytes = ecgJapaneseFile(samples: ["-265,868", "12,5", "0"])
        // Every prefix: an ImportError before the first sample, the complete samples after it.
        for length in 0...bytes.count {
            let prefix = Array(bytes[0..<length])
            do {
                let recording = try ECGReader.read(fileName: "x.csv", bytes: prefix)
                #expect(!recording.samples.isEmpty && recording.samples.count <= 3)
            } catch is ImportError {
            } catch {
                Issue.record("length \(length): unexpected \(error)")
            }
        }
    }

    @Test func invalidUTF8IsDecodedLossily() throws {
        var bytes: [UInt8] = [0xFF, 0xFE, 0x2C, 0xC3, 0x0A]  // a label and value that are not UTF-8
        bytes += Array("Date,\"x\n-1.5\n2.5\n".utf8)
        let recording = try ECGReader.read(fileName: "x.csv", bytes: bytes)
        #expect(recording.samples == [-1.5, 2.5])
        #expect(recording.header[0].label == "\u{FFFD}\u{FFFD}")
        #expect(recording.header[1].value == "x")  // an unclosed quote ends with its line
    }

    /// Seeded garbage: any outcome but a crash or a non-`ImportError` is a failure; the seed names the case.
    @Test(arguments: 0..<50)
    func garbageNeverCrashes(seed: UInt64) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
        let alphabet = Array("0123456789-.,\"\r\n µV".utf8) + [0x00, 0xC3, 0xE2, 0x88, 0x92, 0xFF, 0xEF, 0xBB, 0xBF]
        let length = Int(next() % 2000)
        let bytes = (0..<length).map { _ in
            next() % 4 == 0 ? UInt8(truncatingIfNeeded: next()) : alphabet[Int(next() % UInt64(alphabet.count))]
        }
        do {
            let recording = try ECGReader.read(fileName: "x.csv", bytes: bytes)
            #expect(!recording.samples.isEmpty, "seed \(seed)")
            #expect(recording.samples.allSatisfy { $0.isFinite }, "seed \(seed)")
        } catch is ImportError {
        } catch {
            Issue.record("seed \(seed): unexpected \(error)")
        }
    }
}
