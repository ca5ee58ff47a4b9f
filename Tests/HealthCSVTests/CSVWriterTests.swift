import Foundation
import HealthTestSupport
import Testing

@testable import HealthCSV
@testable import HealthModel

/// The writer on its own: quoting, NULL versus empty text, the spreadsheet flavour's changes, the file's life.
struct CSVWriterTests {
    /// Writes `rows` through a writer and returns the finished file's bytes.
    static func written(_ dialect: CSVDialect, _ rows: [[CSVField]]) throws -> [UInt8] {
        let directory = TemporaryDirectory("csv-writer")
        defer { directory.remove() }
        let writer = try CSVFileWriter(path: directory.file("t.csv"), dialect: dialect)
        for row in rows { try writer.writeRow(row) }
        try writer.finish()
        return Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("t.csv"))))
    }

    static func text(_ dialect: CSVDialect, _ rows: [[CSVField]]) throws -> String {
        String(decoding: try written(dialect, rows), as: UTF8.self)
    }

    @Test func quotesExactlyTheFieldsThatNeedIt() throws {
        let fields: [(String, String)] = [
            ("plain", "plain"),
            ("a,b", "\"a,b\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("\"", "\"\"\"\""),
            ("line1\nline2", "\"line1\nline2\""),
            ("cr\rhere", "\"cr\rhere\""),
            ("crlf\r\ninside", "\"crlf\r\ninside\""),
            (" leading", "\" leading\""),
            ("trailing ", "\"trailing \""),
            ("\ttab", "\"\ttab\""),
            ("in ner", "in ner"),
            ("导出 Jonathan’s ⌚️ 😀", "导出 Jonathan’s ⌚️ 😀"),
            ("=1+2", "=1+2"),  // the standard flavour never alters a cell
            ("", "\"\""),
        ]
        for (field, expected) in fields {
            #expect(try Self.text(.standard, [[.text(field)]]) == expected + "\r\n", "\(field.debugDescription)")
        }
    }

    @Test func nullIsNothingAndEmptyTextIsTwoQuotes() throws {
        let text = try Self.text(.standard, [[.null, .text(""), .null], [.integer(1), .null, .text("x")]])
        #expect(text == ",\"\",\r\n1,,x\r\n")
    }

    @Test func rowsEndInCRLFAndTheStandardFlavourHasNoBOM() throws {
        let bytes = try Self.written(.standard, [[.text("id"), .text("value")], [.integer(-7), .real(70.5)]])
        #expect(bytes == Array("id,value\r\n-7,70.5\r\n".utf8))
    }

    @Test func theExcelFlavourStartsWithABOM() throws {
        let bytes = try Self.written(.excel, [[.text("id")]])
        #expect(bytes == [0xEF, 0xBB, 0xBF] + Array("id\r\n".utf8))
    }

    @Test func theExcelFlavourGuardsTextThatWouldRunAsAFormula() throws {
        let cases: [(String, String, Bool)] = [
            ("=1+2", "'=1+2", true),
            ("=HYPERLINK(\"http://x\",\"Click\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"Click\"\")\"", true),
            ("+49 30 1234", "'+49 30 1234", true),
            ("-abc", "'-abc", true),
            ("@SUM(A1)", "'@SUM(A1)", true),
            ("\t=1", "\"'\t=1\"", true),
            ("\r=1", "\"'\r=1\"", true),
            // Plain numbers in text read as numbers, not formulas: left alone.
            ("-5", "-5", false),
            ("+3.25", "+3.25", false),
            ("-1.5e-3", "-1.5e-3", false),
            ("-03:30", "-03:30", false),  // UTC offsets: a time to a spreadsheet, not a formula
            ("+01:00", "+01:00", false),
            ("-03:30+A1", "'-03:30+A1", true),
            ("a=b", "a=b", false),
            ("", "\"\"", false),
        ]
        for (field, expected, guarded) in cases {
            let directory = TemporaryDirectory("csv-writer")
            defer { directory.remove() }
            let writer = try CSVFileWriter(path: directory.file("t.csv"), dialect: .excel)
            let reason = try writer.writeText(field)
            try writer.endRow()
            try writer.finish()
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("t.csv"))).dropFirst(3))
            #expect(String(decoding: bytes, as: UTF8.self) == expected + "\r\n", "\(field.debugDescription)")
            #expect((reason == .formulaGuarded) == guarded, "\(field.debugDescription)")
        }
        // Numbers are numbers: never guarded, whatever their sign.
        #expect(try Self.text(.excel, [[.integer(-5), .real(-0.25)]]).hasSuffix("-5,-0.25\r\n"))
    }

    @Test func theExcelFlavourLeavesCellsOverExcelsLimitEmptyAndSaysSo() throws {
        let directory = TemporaryDirectory("csv-writer")
        defer { directory.remove() }
        let writer = try CSVFileWriter(path: directory.file("t.csv"), dialect: .excel)
        let fits = String(repeating: "a", count: 32_767)
        #expect(try writer.writeText(fits) == nil)
        #expect(try writer.writeText(fits + "b") == .tooLongForSpreadsheet)
        // Excel counts UTF-16 units: 16,384 emoji are 32,768 of them, though far fewer characters.
        #expect(try writer.writeText(String(repeating: "😀", count: 16_383)) == nil)
        #expect(try writer.writeText(String(repeating: "😀", count: 16_384)) == .tooLongForSpreadsheet)
        // The guard's apostrophe counts too.
        #expect(try writer.writeText("=" + String(repeating: "a", count: 32_766)) == .tooLongForSpreadsheet)
        try writer.endRow()
        try writer.finish()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file("t.csv"))).dropFirst(3).dropLast(2)
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.map(\.count) == [32_767, 0, 16_383, 0, 0])
        // The standard flavour has no limit.
        #expect(try Self.text(.standard, [[.text(fits + "b")]]).count == 32_768 + 1)
    }

    @Test func blobsAreBase64OrLeftOut() throws {
        for length in 0...7 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 97 + 250) }
            let expected = bytes.isEmpty ? "\"\"" : Data(bytes).base64EncodedString()
            #expect(try Self.text(.standard, [[.blob(bytes)]]) == expected + "\r\n")
        }
        let directory = TemporaryDirectory("csv-writer")
        defer { directory.remove() }
        let writer = try CSVFileWriter(path: directory.file("t.csv"), dialect: .excel)
        #expect(try [1, 2, 3].withUnsafeBytes { try writer.writeBlob($0) } == .blobOmitted)
        let standard = try CSVFileWriter(path: directory.file("s.csv"), dialect: .standard)
        #expect(try [1, 2, 3].withUnsafeBytes { try standard.writeBlob($0) } == .blobAsBase64)
    }

    @Test func fieldsLongerThanTheBufferAreWrittenWhole() throws {
        let piece = "ab\"c,\n"
        let long = String(repeating: piece, count: 120_000)  // 720 KB, crossing the 256 KiB buffer twice
        let blob = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let text = try Self.text(.standard, [[.text(long), .blob(blob), .integer(1)]])
        let expected =
            "\"" + long.replacingOccurrences(of: "\"", with: "\"\"") + "\","
            + Data(blob).base64EncodedString() + ",1\r\n"
        #expect(text == expected)
    }

    @Test func instantsFollowTheDialect() throws {
        let instant = Timestamp.parse("2024-03-31T06:15:00Z")!.seconds
        let rows: [[CSVField]] = [
            [.instant(instant, offsetSeconds: 7200), .instant(instant, offsetSeconds: nil)],
            [.instant(instant, offsetSeconds: -(3 * 3600 + 1800)), .instant(instant, offsetSeconds: 0)],
            [.instant(Timestamp.parse("2023-12-31T23:30:00Z")!.seconds, offsetSeconds: 3600)],
        ]
        #expect(
            try Self.text(.standard, rows)
                == "2024-03-31T08:15:00+02:00,2024-03-31T06:15:00Z\r\n2024-03-31T02:45:00-03:30,2024-03-31T06:15:00+00:00\r\n"
                + "2024-01-01T00:30:00+01:00\r\n")
        #expect(
            try Self.text(.excel, rows)
                == "\u{FEFF}2024-03-31 08:15:00,2024-03-31 06:15:00\r\n2024-03-31 02:45:00,2024-03-31 06:15:00\r\n"
                + "2024-01-01 00:30:00\r\n")
    }

    @Test func databaseInstantsAndOffsetsAreParsedStrictly() {
        func utc(_ text: String) -> (Int64, String)? {
            var copy = text
            return copy.withUTF8 { bytes in
                CSVInstantText.parseUTC(UnsafeRawBufferPointer(bytes)).map {
                    ($0.seconds, String(decoding: $0.fraction, as: UTF8.self))
                }
            }
        }
        func offset(_ text: String) -> Int32? {
            var copy = text
            return copy.withUTF8 { CSVInstantText.parseOffset(UnsafeRawBufferPointer($0)) }
        }
        #expect(utc("2024-01-01T00:09:48Z")?.0 == 1_704_067_788)
        #expect(utc("2024-01-01T00:09:48.18Z")?.1 == ".18")
        #expect(utc("2024-02-29T00:00:00Z") != nil)
        for bad in [
            "2023-02-29T00:00:00Z", "2024-01-01 00:09:48Z", "2024-01-01T00:09:48", "2024-01-01T00:09:48.Z",
            "2024-01-01T24:00:00Z", "2024-01-01T00:09:48+01:00", "2024-01-01", "", "not a date at all, really",
        ] {
            #expect(utc(bad) == nil, "\(bad)")
        }
        #expect(offset("+01:00") == 3600)
        #expect(offset("+0100") == 3600)
        #expect(offset("-03:30") == -12_600)
        #expect(offset("Z") == 0)
        for bad in ["+1:00", "01:00", "+01-00", "+25:00", "", "+01:00:00"] { #expect(offset(bad) == nil, "\(bad)") }
    }

    @Test func theFileIsOwnerOnlyAndAppearsOnlyWhenFinished() throws {
        let directory = TemporaryDirectory("csv-writer")
        defer { directory.remove() }
        let path = directory.file("t.csv")
        let writer = try CSVFileWriter(path: path, dialect: .standard)
        try writer.writeRow([.text("a")])
        #expect(!FileManager.default.fileExists(atPath: path))
        let mode = try FileManager.default.attributesOfItem(atPath: path + ".tmp")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try writer.finish()
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        #expect(throws: ImportError.self) { try writer.writeText("late") }
    }

    @Test func anUnfinishedFileIsRemoved() throws {
        let directory = TemporaryDirectory("csv-writer")
        defer { directory.remove() }
        let path = directory.file("t.csv")
        do {
            let writer = try CSVFileWriter(path: path, dialect: .standard)
            try writer.writeRow([.text("dropped without finish()")])
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        let writer = try CSVFileWriter(path: path, dialect: .standard)
        writer.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aFileThatCannotBeCreatedIsAnOutputErrorNamingIt() {
        let path = "/nonexistent-folder-\(UUID().uuidString)/t.csv"
        #expect {
            _ = try CSVFileWriter(path: path, dialect: .standard)
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .output && error.file == path && error.description.contains("No such file")
        }
    }
}
