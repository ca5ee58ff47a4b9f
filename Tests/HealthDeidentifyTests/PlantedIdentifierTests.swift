import Foundation
import HealthSQLite
import HealthTestSupport
import Testing

@testable import HealthDeidentify
@testable import HealthETL

/// The issue's "How to test it": identifiers planted in an export, imported, de-identified; no byte of the copy,
/// its CSV folder or its report holds any of them in any encoding those outputs use, and what should stay stays.
@Suite struct PlantedIdentifierTests {
    struct Copy {
        let folder: TemporaryDirectory
        let database: String
        let csv: String
        let report: String
    }

    static let copies = OnceCache<[String], Copy>()

    /// The planted export de-identified with `options` (CLI flags), then exported to CSV and drawn as a report, all
    /// through the command line in-process.
    static func copy(_ flags: [String]) throws -> Copy {
        try copies.value(flags) {
            let planted = try PlantedExport.make()
            let folder = TemporaryDirectory.removedAtExit("deidentify-copy")
            let key = try TestKey.write(in: folder)
            let database = folder.file("shared.sqlite")
            try run(["deidentify", "--db", planted.database, "--out", database, "--key-file", key, "--quiet"] + flags)
            let csv = folder.file("csv")
            try run(["export", "--db", database, "--csv", csv])
            let report = folder.file("report.html")
            try run(["report", "--db", database, "--out", report, "--quiet"])
            return Copy(folder: folder, database: database, csv: csv, report: report)
        }
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> CapturedOutput {
        let output = CapturedOutput()
        let tool = Tool(
            standardOutput: { output.out += $0 }, standardError: { output.err += $0 }, errorIsTerminal: false)
        let code = tool.run(arguments)
        guard code == 0 else { throw ToolFailed(arguments: arguments, code: code, error: output.err) }
        return output
    }

    struct ToolFailed: Error {
        var arguments: [String]
        var code: Int32
        var error: String
    }

    /// Every file under `path` (or the file itself).
    static func files(_ path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
        return names.map { path + "/" + $0 }.filter {
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &folder) && !folder.boolValue
        }
    }

    /// The planted strings found in the files at `paths`, with the file and the encoding.
    static func plantedStrings(in paths: [String]) throws -> [String] {
        var found: [String] = []
        for path in paths.flatMap(files) {
            let bytes = try EncodedForms.lowercasingASCII(Array(Data(contentsOf: URL(fileURLWithPath: path))))
            for planted in PlantedExport.plantedStrings {
                for (encoding, needle) in EncodedForms.forms(of: planted) where EncodedForms.contains(bytes, needle) {
                    let context = EncodedForms.context(of: needle, in: bytes)
                    found.append("\(planted) (\(encoding)) in \(path): …\(context)…")
                }
            }
        }
        return found
    }

    @Test func theOriginalHoldsEveryPlantedString() throws {
        // Otherwise the checks below could not fail.
        let planted = try PlantedExport.make()
        let bytes = try EncodedForms.lowercasingASCII(Array(Data(contentsOf: URL(fileURLWithPath: planted.database))))
        for string in PlantedExport.plantedStrings {
            let present = EncodedForms.forms(of: string).contains { EncodedForms.contains(bytes, $0.1) }
            #expect(present, "\(string) did not reach the original database")
        }
        #expect(!planted.homes.isEmpty)
    }

    @Test(arguments: [[], ["--routes", "relative", "--shift-dates", "--person", "p-17"]])
    func noPlantedStringInTheCopyItsCSVOrItsReport(flags: [String]) throws {
        let copy = try Self.copy(flags)
        // Held in a constant so that a failure prints what was found, where, and in which encoding.
        let found = try Self.plantedStrings(in: [copy.database, copy.csv, copy.report])
        #expect(found == [])
        // A fresh file, owner-only, nothing left beside it.
        var status = stat()
        #expect(stat(copy.database, &status) == 0 && status.st_mode & 0o777 == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: copy.folder.path).filter {
            $0.hasPrefix("shared.sqlite") && $0 != "shared.sqlite"
        }
        #expect(leftovers == [])
    }

    @Test(arguments: [[], ["--routes", "relative", "--shift-dates", "--person", "p-17"]])
    func noRoutePointNearHome(flags: [String]) throws {
        let planted = try PlantedExport.make()
        let copy = try Self.copy(flags)
        let connection = try SQLiteConnection(path: copy.database, create: false)
        let points = try connection.query("SELECT latitude, longitude FROM route_points")
        for point in points {
            let (latitude, longitude) = (PlantedExport.double(point[0]), PlantedExport.double(point[1]))
            for home in planted.homes {
                #expect(abs(latitude - home.0) > 0.5 || abs(longitude - home.1) > 0.5)
            }
        }
        let original = try SQLiteConnection(path: planted.database, create: false)
        let originalCount = try original.scalar("SELECT count(*) FROM route_points").integer ?? 0
        #expect(originalCount > 0)
        if flags.contains("relative") {
            #expect(points.count == Int(originalCount))
            // Each route starts at 0,0.
            let starts = try connection.query(
                "SELECT latitude, longitude FROM route_points WHERE seq = 0 AND (latitude <> 0 OR longitude <> 0)")
            #expect(starts.isEmpty)
        } else {
            #expect(points.isEmpty)
            #expect(try connection.scalar("SELECT sum(point_count) FROM workout_routes").integer == 0)
        }
    }

    /// Samples per type, daily rollups (moved by the shift) and workouts with their totals, as in the original.
    @Test(arguments: [[], ["--routes", "relative", "--shift-dates", "--person", "p-17"]])
    func whatShouldStayStays(flags: [String]) throws {
        let planted = try PlantedExport.make()
        let copy = try Self.copy(flags)
        let connection = try SQLiteConnection(path: copy.database, create: false)
        try connection.execute("ATTACH DATABASE '\(planted.database)' AS original")
        for table in ["cumulative_samples", "discrete_samples", "category_samples"] {
            let counts = "SELECT type, count(*) FROM %@\(table) GROUP BY type ORDER BY type"
            let copied = try connection.query(counts.replacingOccurrences(of: "%@", with: "main."))
            #expect(!copied.isEmpty)
            #expect(copied == (try connection.query(counts.replacingOccurrences(of: "%@", with: "original."))))
        }
        // The shift, measured: one whole, non-zero number of weeks for every workout, or none without the flag.
        let shifts = try connection.query(
            "SELECT DISTINCT round(julianday(c.start_date) - julianday(o.start_date), 6) FROM main.workouts AS c "
                + "JOIN original.workouts AS o USING (id)")
        #expect(shifts.count == 1)
        let days = Int(PlantedExport.double(shifts[0][0]))
        if flags.contains("--shift-dates") {
            #expect(days != 0 && days % 7 == 0)
        } else {
            #expect(days == 0)
        }
        let rollups = try connection.query("SELECT count(*) FROM original.daily_rollups")[0][0].integer ?? 0
        #expect(rollups > 100)
        let differing = try connection.scalar(
            """
            SELECT count(*) FROM original.daily_rollups AS o LEFT JOIN main.daily_rollups AS c
                ON c.date = date(o.date, '\(days) days') AND c.type = o.type AND c.statistic = o.statistic
            WHERE c.value IS NOT o.value
            """)
        #expect(differing == .integer(0))
        #expect(try connection.scalar("SELECT count(*) FROM main.daily_rollups") == .integer(rollups))
        let workouts =
            "SELECT id, activity_type, duration, total_distance, total_energy_burned, strftime('%w %H:%M:%S', start_date) "
            + "FROM %@workouts ORDER BY id"
        let copied = try connection.query(workouts.replacingOccurrences(of: "%@", with: "main."))
        #expect(copied.count > 3)
        #expect(copied == (try connection.query(workouts.replacingOccurrences(of: "%@", with: "original."))))
        let statistics = "SELECT workout_id, type, sum, average FROM %@workout_statistics ORDER BY id"
        #expect(
            try connection.query(statistics.replacingOccurrences(of: "%@", with: "main."))
                == (try connection.query(statistics.replacingOccurrences(of: "%@", with: "original."))))
    }

    @Test func theCopyRecordsWhatWasDoneWithoutTheKey() throws {
        let copy = try Self.copy([])
        let connection = try SQLiteConnection(path: copy.database, create: false)
        let record = try jsonObject(
            connection.scalar("SELECT value FROM settings WHERE key = 'deidentification'").text ?? "")
        let key = try DeidentificationKey.load(path: copy.folder.file("secret.key"))
        #expect(record["key_fingerprint"] as? String == key.fingerprint)
        let counts = record["counts"] as? [String: Int] ?? [:]
        #expect((counts["names_stripped"] ?? 0) > 0 && (counts["pseudonyms"] ?? 0) > 0)
        #expect(counts["birth_dates_generalised"] == 1)
        #expect(record["unknown_apps"] as? String == "pseudonymised")
        #expect(try connection.scalar("SELECT value FROM me WHERE key LIKE '%DateOfBirth'") == .text("1987"))
        let warnings = Set(try connection.query("SELECT message FROM import_warnings").compactMap { $0[0].text })
        #expect(warnings.contains("route file missing for a workout of iPhone on 2024-01-03"))
        #expect(warnings.contains("(removed: the text named a person)"))
        #expect(
            try connection.query("SELECT source_name, row_json, metadata_json FROM deleted_samples")
                == [[.text("iPhone"), .null, .null]])
        let keyBytes = try Data(contentsOf: URL(fileURLWithPath: copy.folder.file("secret.key")))
        let file = try Data(contentsOf: URL(fileURLWithPath: copy.database))
        #expect(file.range(of: keyBytes) == nil)
        #expect(file.range(of: Data(keyBytes.map { $0 }.hexText.utf8)) == nil)
    }

    /// FHIR and IEEE 1752.1 written from the copy (both levels; FHIR as NDJSON and as a Bundle) hold none of the planted identifiers,
    /// and its Patient holds no more than sex and year of birth; the same export of the original does hold them.
    @Test(arguments: [[String](), ["--level", "samples", "--bundle"]])
    func noPlantedStringInTheCopysFHIRorIEEE1752(flags: [String]) throws {
        let copy = try Self.copy(["--routes", "relative", "--shift-dates", "--person", "p-17"])
        let fhir = copy.folder.file("fhir-\(flags.count)")
        let ieee = copy.folder.file("ieee-\(flags.count)")
        let level = flags.contains("samples") ? ["--level", "samples"] : []
        try Self.run(["export", "--db", copy.database, "--fhir", fhir, "--quiet"] + flags)
        try Self.run(["export", "--db", copy.database, "--ieee1752", ieee, "--quiet"] + level)
        #expect(try Self.plantedStrings(in: [fhir, ieee]) == [])
        if flags.isEmpty {
            let patient = try String(contentsOfFile: fhir + "/Patient.ndjson", encoding: .utf8)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(patient.utf8)) as? [String: Any])
            #expect(Set(object.keys).isSubset(of: ["resourceType", "id", "gender", "birthDate"]))
            #expect(object["birthDate"] as? String == "1987")
            #expect((object["id"] as? String)?.hasPrefix("person-") == true)
        }
        // The check can fail: the original's FHIR names its sources ("Zebulonia Tracker", …).
        let original = copy.folder.file("fhir-original-\(flags.count)")
        let originalIEEE = copy.folder.file("ieee-original-\(flags.count)")
        try Self.run(["export", "--db", try PlantedExport.make().database, "--fhir", original, "--quiet"] + flags)
        try Self.run(
            ["export", "--db", try PlantedExport.make().database, "--ieee1752", originalIEEE, "--quiet"] + level)
        #expect(try Self.plantedStrings(in: [original]) != [])
        #expect(try Self.plantedStrings(in: [originalIEEE]) != [])
    }

    @Test func sourceNamesKeepTheDeviceKind() throws {
        let copy = try Self.copy([])
        let connection = try SQLiteConnection(path: copy.database, create: false)
        let names = Set(try connection.query("SELECT name FROM sources").compactMap { $0[0].text })
        #expect(names.isSuperset(of: ["Apple Watch", "iPhone", "iPad", "iPod", "Health", "Strava"]))
        #expect(names.contains { $0.hasPrefix("source-") })  // "Zebulonia Tracker": a name from the export's own fields
        // Apps on no list of known HealthKit apps (the generator's "ZenBreath", "Fever & <Temp> Log") are
        // pseudonymised too, though the export names nobody in them; known ones ("Health Mate", "Mimi") stay.
        #expect(!names.contains("ZenBreath") && !names.contains("Fever & <Temp> Log"))
        #expect(names.isSuperset(of: ["Health Mate", "Mimi", "AutoSleep", "OMRON connect"]))
        let stored = Set(try connection.query("SELECT DISTINCT source_name FROM workouts").compactMap { $0[0].text })
        #expect(stored.isSubset(of: names))
    }
}

/// The forms a string takes in the outputs: UTF-8, JSON's and HTML's escapes, UTF-16 either way round; compared
/// ignoring ASCII case.
enum EncodedForms {
    static func forms(of text: String) -> [(String, [UInt8])] {
        var json = ""
        var htmlDecimal = ""
        var htmlHex = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let character = String(scalar)
                json += character == "/" ? "\\/" : character
                let html =
                    ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"][character] ?? character
                htmlDecimal += html
                htmlHex += html
            } else {
                json += String(format: "\\u%04x", scalar.value)
                htmlDecimal += "&#\(scalar.value);"
                htmlHex += "&#x\(String(scalar.value, radix: 16));"
            }
        }
        let utf16 = Array(text.utf16)
        let little = utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        let big = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
        let forms: [(String, [UInt8])] = [
            ("UTF-8", Array(text.utf8)), ("JSON", Array(json.utf8)),
            ("JSON /", Array(json.replacingOccurrences(of: "\\/", with: "/").utf8)),
            ("HTML", Array(htmlDecimal.utf8)), ("HTML hex", Array(htmlHex.utf8)), ("UTF-16LE", little),
            ("UTF-16BE", big),
        ]
        return forms.map { ($0.0, lowercasingASCII($0.1)) }
    }

    static func lowercasingASCII(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5a ? $0 + 0x20 : $0 }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        firstIndex(of: needle, in: haystack) != nil
    }

    /// Where `needle` first occurs in `haystack`. A needle of digits only counts where it stands as a number of its
    /// own: the copy's keyed 64-bit hashes are 19-digit numbers that hold any seven digits by chance (CI once found
    /// the planted phone number's 5550199 inside -2455501994373101958), and such a hash is not the number leaking.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let digitsOnly = needle.allSatisfy(isDigit)
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) {
                let end = index + needle.count
                let standsAlone =
                    (index == 0 || !isDigit(haystack[index - 1]))
                    && (end == haystack.count || !isDigit(haystack[end]))
                if !digitsOnly || standsAlone { return index }
            }
            index += 1
        }
        return nil
    }

    /// The bytes around `needle`'s first place in `haystack`, printable, for a failure's message.
    static func context(of needle: [UInt8], in haystack: [UInt8]) -> String {
        guard let index = firstIndex(of: needle, in: haystack) else { return "" }
        let window = haystack[max(0, index - 60)..<min(haystack.count, index + needle.count + 60)]
        return String(decoding: window.map { (32..<127).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
    }
}

/// A key file as a person makes one: 32 random bytes, owner-only.
enum TestKey {
    static func write(in folder: TemporaryDirectory, bytes: Int = 32, mode: mode_t = 0o600) throws -> String {
        let path = folder.file("secret.key")
        var generator = SystemRandomNumberGenerator()
        var key = (0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // A failure that depends on the key is reproduced by giving the printed key back in HEALTHETL_TEST_KEY.
        if let hex = ProcessInfo.processInfo.environment["HEALTHETL_TEST_KEY"], hex.count == bytes * 2 {
            key = stride(from: 0, to: hex.count, by: 2).map {
                let start = hex.index(hex.startIndex, offsetBy: $0)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
            }
        }
        // Printed, so that a failure that depends on the key can be reproduced with it.
        print("TestKey \(path): \(key.map { String(format: "%02x", $0) }.joined())")
        FileManager.default.createFile(atPath: path, contents: Data(key))
        chmod(path, mode)
        return path
    }
}

/// Every MCP tool's answers over the copy, and `sql` over every table and view, hold no planted string either:
/// the real `healthetl mcp`, spoken to over stdio.
@Suite struct MCPAnswerTests {
    @Test(.needsHealthetlExecutable, arguments: [[], ["--routes", "relative", "--shift-dates"]])
    func noPlantedStringInAnyToolsAnswer(flags: [String]) throws {
        let copy = try PlantedIdentifierTests.copy(flags)
        let answers = try Self.answers(database: copy.database, into: copy.folder.file("mcp-\(flags.count).jsonl"))
        #expect(try PlantedIdentifierTests.plantedStrings(in: [answers]) == [])
    }

    /// The same questions over the original do reveal the planted names: the check above can fail.
    @Test(.needsHealthetlExecutable) func theOriginalsAnswersRevealThem() throws {
        let planted = try PlantedExport.make()
        let folder = TemporaryDirectory("deidentify-mcp-original")
        defer { folder.remove() }
        let answers = try Self.answers(database: planted.database, into: folder.file("mcp.jsonl"))
        let found = try PlantedIdentifierTests.plantedStrings(in: [answers]).joined(separator: "\n")
        for string in ["Zebulonia", "Quirinella", "SN-QX7Z99K1PLANT", "zeb.planted@example.org", "Plantedweg"] {
            #expect(found.contains(string + " ("), "\(string)")
        }
    }

    /// Every tool asked about the whole database, `workout_detail` about each workout, `sql` about every table and
    /// view; the answers, one JSON-RPC line each, in the file `path`.
    static func answers(database: String, into path: String) throws -> String {
        let connection = try SQLiteConnection(path: database, create: false)
        let first = try connection.scalar("SELECT min(local_date) FROM cumulative_samples").text ?? ""
        let last = try connection.scalar("SELECT max(local_date) FROM cumulative_samples").text ?? ""
        let workouts = try connection.query("SELECT id FROM workouts").compactMap { $0[0].integer }
        let relations = try connection.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            .compactMap { $0[0].text }
        var calls: [(String, String)] = [
            ("overview", "{}"), ("list_metrics", "{}"),
            ("metric_series", #"{"metric":"StepCount","start":"\#(first)","end":"\#(last)","period":"day"}"#),
            ("metric_series", #"{"metric":"HeartRate","start":"\#(first)","end":"\#(last)","period":"week"}"#),
            ("sleep_nights", #"{"start":"\#(first)","end":"\#(last)"}"#),
            ("workouts", #"{"start":"\#(first)","end":"\#(last)"}"#),
            ("samples", #"{"metric":"BodyMass","start":"\#(first)","end":"\#(last)","limit":1000}"#),
            ("samples", #"{"metric":"HeartRate","start":"\#(first)","end":"\#(last)","limit":1000}"#),
        ]
        calls += workouts.map { ("workout_detail", #"{"id":\#($0),"route_points":1000}"#) }
        calls += relations.map { ("sql", #"{"query":"SELECT * FROM \"\#($0)\" LIMIT 1000"}"#) }
        // The identifiers' rows, wherever they are in a large table.
        calls.append(
            (
                "sql",
                #"{"query":"SELECT * FROM metadata WHERE key IN ('Note', 'HKDeviceSerialNumber', 'HKDeviceName', 'HKExternalUUID') ORDER BY parent_id DESC LIMIT 1000"}"#
            ))
        var lines = [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        ]
        for (index, call) in calls.enumerated() {
            lines.append(
                #"{"jsonrpc":"2.0","id":\#(index + 2),"method":"tools/call","params":{"name":"\#(call.0)","arguments":\#(call.1)}}"#
            )
        }
        // swift-format-ignore: NeverForceUnwrap
        // The trait skips the tests when the executable is not built.
        let result = try ProcessRunner.run(
            Fixtures.healthetl!, ["mcp", "--db", database, "--max-rows", "1000"],
            input: lines.joined(separator: "\n") + "\n")
        try result.output.write(toFile: path, atomically: true, encoding: .utf8)
        // Answers with content: the checks read real rows, not errors.
        let answered = result.output.components(separatedBy: "\n").filter { $0.contains("\"result\"") }
        #expect(answered.count == calls.count + 2)
        #expect(answered.filter { $0.contains("\"isError\":true") }.count < 3)
        #expect(result.output.contains("HKQuantityTypeIdentifierStepCount"))
        return path
    }
}
