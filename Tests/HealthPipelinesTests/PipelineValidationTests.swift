import Foundation
import HealthTestSupport
import Testing

@testable import HealthPipelines
@testable import HealthPostgres

/// Every problem of a pipeline file is reported at once, each at its exact JSON path.
@Suite struct PipelineValidationTests {
    static func parse(_ json: String, base: String = NSTemporaryDirectory()) throws -> PipelineDefinition {
        try PipelineDefinition.parse(data: Data(json.utf8), baseDirectory: base, fileName: "pipelines/x.json")
    }

    static func problems(_ json: String) -> [String] {
        do {
            _ = try parse(json)
            return []
        } catch let error as PipelineError {
            return error.problems.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    static let minimalSinks = #""sinks": [{"sqlite": "/tmp/x.sqlite"}]"#

    @Test func aFileWithManyProblemsReportsAllOfThemWithTheirPaths() {
        let json = """
            {
              "version": 1, "sink": [],
              "input": {"export": "export.zip"},
              "filters": {"types": ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierStepCont"]},
              "stages": [
                {"stage": "units"}, {"stage": "dedupe"},
                {"stage": "rollups", "priority": {"HKQuantityTypeIdentifierStepCount": ["watch", "garmin"]}}
              ],
              "sinks": [
                {"sqlite": "/proc/1/x.sqlite", "wait": 100000},
                {"csv": "/tmp/a"}, {"csv": "/tmp/b"},
                {"csv": "/proc/1/out"}
              ]
            }
            """
        #expect(
            Self.problems(json) == [
                "sink: unknown field 'sink' (did you mean 'sinks'?)",
                "filters.types[1]: unknown type 'HKQuantityTypeIdentifierStepCont' (did you mean 'HKQuantityTypeIdentifierStepCount'?)",
                "stages[1].stage: unknown stage 'dedupe' (did you mean 'dedup'?)",
                "stages[2].priority.HKQuantityTypeIdentifierStepCount[1]: unknown word 'garmin' (allowed: watch, iphone, apps, manual, source:<name>)",
                "sinks[0].sqlite: folder '/proc/1' is not writable",
                "sinks[0].wait: 100000 is out of range: seconds from 0 to 86400",
                "sinks[2]: a second csv sink (the first is sinks[1]); a pipeline writes one of each",
                "sinks[3]: a second csv sink (the first is sinks[1]); a pipeline writes one of each",
            ])
    }

    @Test func theErrorDescriptionHasOneLinePerProblemStartingWithTheFile() {
        let json =
            #"{"version": 1, "input": {"export": "e.zip"}, "stages": [{"stage": "rollups", "priority": {"default": ["garmin"]}}], "#
            + Self.minimalSinks + "}"
        let error = #expect(throws: PipelineError.self) { try Self.parse(json) }
        #expect(
            error?.description
                == "pipelines/x.json: stages[0].priority.default[0]: unknown word 'garmin' (allowed: watch, iphone, apps, manual, source:<name>)"
        )
    }

    @Test func unwritableOutputFoldersAreReported() {
        let json = """
            {"version": 1, "input": {"export": "e.zip"},
             "sinks": [{"sqlite": "/proc/1/health.sqlite"}, {"csv": "/proc/1/out"}]}
            """
        #expect(
            Self.problems(json) == [
                "sinks[0].sqlite: folder '/proc/1' is not writable",
                "sinks[1].csv: cannot create '/proc/1/out': folder '/proc/1' is not writable",
            ])
        let missing = #"{"version": 1, "input": {"export": "e.zip"}, "sinks": [{"csv": "/nonexistent-healthetl/a/b"}]}"#
        #expect(
            Self.problems(missing) == [
                "sinks[0].csv: cannot create '/nonexistent-healthetl/a/b': folder '/nonexistent-healthetl/a' does not exist"
            ])
    }

    @Test func wrongJSONTypesAreNamed() {
        let json = """
            {"version": "1", "description": 5, "input": {"export": 3, "stateOfMind": null},
             "timeZone": true, "filters": {"types": "HKQuantityTypeIdentifierStepCount", "sources": [1], "from": 2020},
             "stages": {"stage": "units"},
             "sinks": [{"sqlite": "/tmp/x.sqlite", "wait": "10", "force": 1}, {"csv": "/tmp/c", "excel": "yes"}, 7]}
            """
        #expect(
            Self.problems(json) == [
                "version: expected a number, found a string",
                "description: expected a string, found a number",
                "input.stateOfMind: expected a string, found null",
                "input.export: expected a string, found a number",
                "timeZone: expected a string, found a boolean",
                "filters.types: expected an array, found a string",
                "filters.sources[0]: expected a string, found a number",
                "filters.from: expected a string, found a number",
                "stages: expected an array, found an object",
                "sinks[0].wait: expected a number, found a string",
                "sinks[0].force: expected a boolean, found a number",
                "sinks[1].excel: expected a boolean, found a string",
                "sinks[2]: expected an object, found a number",
            ])
    }

    @Test func stagesSinksAndFiltersCheckTheirRules() {
        let json = """
            {"version": 2, "input": {"export": "e.zip", "statOfMind": "x.json"}, "timeZone": "Europe/Berln",
             "filters": {"types": [], "from": "2021-02-30", "to": "2020-01-01"},
             "stages": [{"stage": "units", "enabled": false, "periods": ["day"]}, {"stage": "units"}, {"enabled": true},
                        {"stage": "rollups", "periods": ["day", "fortnight", "day"], "priority": {"HKFoo": ["watch"], "default": []}}],
             "sinks": [{"sqlite": "/tmp/x.sqlite", "csv": "/tmp/c"}, {"wait": 1}, {"csv": "/tmp/c", "tables": false, "daily": false}]}
            """
        #expect(
            Self.problems(json) == [
                "version: unsupported version 2 (this healthetl reads version 1)",
                "input.statOfMind: unknown field 'statOfMind' (did you mean 'stateOfMind'?)",
                "timeZone: unknown time zone 'Europe/Berln' (did you mean 'Europe/Berlin'?)",
                "filters.types: empty list: give at least one type identifier",
                "filters.from: '2021-02-30' is not a date of the form YYYY-MM-DD",
                "stages[0].periods: unknown field 'periods' (allowed in stage 'units': stage, enabled)",
                "stages[1].stage: stage 'units' appears twice (first at stages[0])",
                "stages[2]: missing field 'stage' (one of: units, valence, dedup, rollups)",
                "stages[3].periods[1]: unknown period 'fortnight' (allowed: hour, day, week, month)",
                "stages[3].periods[2]: period 'day' appears twice",
                "stages[3].priority.HKFoo: unknown type 'HKFoo' (keys are 'default' or quantity and category type identifiers)",
                "stages[3].priority.default: empty list: give at least one source priority word",
                "sinks[0]: has both 'sqlite' and 'csv': give each its own sink",
                "sinks[1]: missing the kind of sink: add \"sqlite\": \"<file>\", \"postgres\": \"<url>\" or \"csv\": \"<folder>\"",
                "sinks[2]: writes nothing: set \"tables\" or \"daily\" to true",
            ])
    }

    @Test func fromMustComeBeforeToAndMissingPartsAreNamed() {
        #expect(
            Self.problems(#"{"filters": {"from": "2021-01-01", "to": "2021-01-01"}, "sinks": []}"#) == [
                "version: missing: add \"version\": 1",
                "input: missing: give at least \"input\": {\"export\": \"<export.zip>\"}",
                "filters.to: 2021-01-01 must be after filters.from (2021-01-01): 'to' is exclusive",
                "sinks: empty list: give at least one sink, {\"sqlite\": \"<file>\"}, {\"postgres\": \"<url>\", \"person\": \"<id>\"} or {\"csv\": \"<folder>\"}",
            ])
        #expect(Self.problems("[1]") == ["expected an object, found an array"])
    }

    @Test func invalidJSONGivesLineAndColumn() {
        // HealthJSON's parser places the error itself: the byte where the grammar breaks, as line:column.
        #expect(
            Self.problems("{\n  \"version\": 1,\n  \"input\" 2 }") == [
                "3:11: invalid JSON: expected ':'"
            ])
        // A truncated file: the problem is at its end.
        #expect(Self.problems("{\n  \"version\": 1,\n  \"input\": {") == ["3:13: invalid JSON: expected a key"])
        // The whole error is one line that starts like a compiler's.
        #expect(throws: PipelineError.self) { try Self.parse("{\n  \"version\": 1,\n  \"input\" 2 }") }
        do {
            _ = try Self.parse("{\n  \"version\": 1,\n  \"input\" 2 }")
        } catch {
            #expect("\(error)" == "pipelines/x.json:3:11: invalid JSON: expected ':'")
        }
    }

    @Test func lineAndColumnCountCharactersNotBytes() {
        // "é" and "ü" are two bytes each: the x is the seventh character of its line, its eighth byte.
        #expect(Self.problems("{\"é\":\n  \"ü\" x") == ["2:7: invalid JSON: expected ',' or '}'"])
        #expect(Self.problems("{\"é\": 1 x") == ["1:9: invalid JSON: expected ',' or '}'"])
    }

    @Test func aKeyGivenTwiceIsRefusedWhereItIsRepeated() {
        #expect(
            Self.problems("{\"version\": 1,\n \"sinks\": [],\n \"version\": 2}") == [
                "3:2: invalid JSON: duplicate key 'version'"
            ])
        // In a nested object too; the same key in two objects is not a repeat.
        #expect(
            Self.problems(#"{"sinks": [{"csv": "a"}, {"csv": "b", "csv": "c"}]}"#) == [
                "1:39: invalid JSON: duplicate key 'csv'"
            ])
    }

    @Test func aByteOrderMarkIsPassedOver() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = directory.write("export.zip", "")
        let text = #"{"version": 1, "input": {"export": "export.zip"}, "sinks": [{"sqlite": "h.sqlite"}]}"#
        let withMark = try PipelineDefinition.parse(
            data: Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)), baseDirectory: directory.path, fileName: "p.json")
        let plain = try PipelineDefinition.parse(
            data: Data(text.utf8), baseDirectory: directory.path, fileName: "p.json")
        #expect(withMark == plain)
        // The mark is not a character of the first line: columns count from after it.
        #expect(
            throws: PipelineError(
                fileName: "p.json",
                problems: [.init(path: "", message: "invalid JSON: expected ':'", line: 1, column: 12)])
        ) {
            try PipelineDefinition.parse(
                data: Data([0xEF, 0xBB, 0xBF] + Array(#"{"version" 1}"#.utf8)), baseDirectory: directory.path,
                fileName: "p.json")
        }
    }

    @Test func aPostgresSinkNeedsAPersonAndExcludesSQLite() throws {
        let base = #""version": 1, "input": {"export": "export.zip"}"#
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = directory.write("export.zip", "")
        let definition = try Self.parse(
            "{\(base), \"sinks\": [{\"postgres\": \"\", \"person\": \"P123\", \"wait\": 5, \"force\": true}, {\"csv\": \"/tmp/c\"}]}",
            base: directory.path)
        #expect(definition.postgres == .init(connection: "", person: "P123", wait: 5, force: true))
        let plan = try definition.plan()
        #expect(plan.postgres == PostgresDestination(connection: "", person: "P123"))
        #expect(plan.databasePath == nil && plan.job.lockTimeoutSeconds == 5 && plan.job.allowOlderExport)

        #expect(
            Self.problems(
                "{\(base), \"sinks\": [{\"sqlite\": \"/tmp/x.sqlite\"}, {\"postgres\": \"postgresql://h/db\", \"person\": \"p\"}]}"
            ) == ["sinks[1]: a postgres sink besides the sqlite sink at sinks[0]: a pipeline writes one database"])
        #expect(
            Self.problems("{\(base), \"sinks\": [{\"postgres\": \"postgresql://h/db\"}]}")
                == ["sinks[0].person: missing: whose data is it? (\"person\": \"<id>\")"])
        #expect(
            Self.problems("{\(base), \"sinks\": [{\"postgres\": 5, \"person\": \"p\", \"pw\": 1}]}") == [
                "sinks[0].pw: unknown field 'pw' (allowed in a postgres sink: postgres, person, wait, force, workingCopy)",
                "sinks[0].postgres: expected a string (a postgresql:// URL, or \"\" for the PG* environment variables), found a number",
            ])
    }
}

/// The report sink: its fields are checked like the others', and it needs the SQLite database it is drawn from.
@Suite struct ReportSinkValidationTests {
    @Test func aReportSinkNeedsASQLiteSinkAndValidFields() {
        let json = """
            {"version": 1, "input": {"export": "e.zip"},
             "sinks": [{"csv": "/tmp"}, {"report": "/tmp/r.html", "from": "2024-02-30", "days": 0, "sections": ["sleep", "mood"],
                        "colour": "red"}]}
            """
        #expect(
            PipelineValidationTests.problems(json) == [
                "sinks[1].colour: unknown field 'colour' (allowed in a report sink: report, from, to, days, sections)",
                "sinks[1].from: '2024-02-30' is not a date of the form YYYY-MM-DD",
                "sinks[1].days: 0 is not a whole number of days from 1 to 36600",
                "sinks[1].sections[1]: unknown section 'mood' (known: activity, sleep, heart, body, workouts, changes)",
                "sinks[1]: a report is drawn from the database of a sqlite sink: add {\"sqlite\": \"<file>\"}",
            ])
    }

    @Test func aValidReportSinkBecomesThePlansReport() throws {
        let json = """
            {"version": 1, "input": {"export": "e.zip"},
             "sinks": [{"report": "r.html", "from": "2024-01-01", "to": "2025-01-01", "sections": ["sleep", "heart"]},
                       {"sqlite": "/tmp/x.sqlite"}]}
            """
        let definition = try PipelineValidationTests.parse(json, base: "/tmp")
        let report = definition.outputs.first(HTMLReportOutput.self)
        #expect(report?.path == "/tmp/r.html")
        #expect(report?.options.sections == [.sleep, .heart])
        #expect(report?.options.from == "2024-01-01" && report?.options.to == "2025-01-01")
    }
}
