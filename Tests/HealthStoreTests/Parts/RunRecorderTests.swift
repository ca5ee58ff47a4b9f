import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `RunRecorder`: what a run leaves about itself in `import_runs`, its changes, anchors and settings.
struct RunRecorderTests {
    static func changes(added: Int, identities: [Int64]) -> [String: TypeChanges] {
        var steps = TypeChanges(table: "cumulative_samples")
        steps.added = added
        for identity in identities { steps.keep(identity: identity, start: 0, end: 1_700_000_000, creation: nil) }
        var untouched = TypeChanges(table: "discrete_samples")
        untouched.keep(identity: 9, start: nil, end: nil, creation: nil)
        return ["HKQuantityTypeIdentifierStepCount": steps, "HKQuantityTypeIdentifierHeartRate": untouched]
    }

    @Test func recordsTheRunItsWarningsAndItsChangedTypes() throws {
        let store = try StoreFixture()
        let recorder = try RunRecorder(store.connection, hadData: false)
        #expect(recorder.runID == 1)
        var summary = ImportSummary()
        summary.input = "export.zip"
        summary.exportDate = "2024-03-01T09:00:00Z"
        summary.warnings = ["b warning": 2, "a warning": 1]
        summary.changes = Self.changes(added: 2, identities: [1, 2])
        try recorder.writeRun(summary)
        try recorder.writeChanges(Self.changes(added: 2, identities: [1, 2]))
        let run = try store.connection.query("SELECT id, input_path, export_date, outcome, added FROM import_runs")
        #expect(run.count == 1)
        #expect(run.first?[0] == .integer(1))
        #expect(run.first?[1] == .text("export.zip"))
        #expect(run.first?[2] == .text("2024-03-01T09:00:00Z"))
        #expect(run.first?[3] == .text("ok"))
        #expect(run.first?[4] == .integer(2))
        #expect(try store.integer("SELECT count(*) FROM import_warnings WHERE run_id = 1") == 2)
        // Only a type that something happened to has a row of changes (the heart rate type has none).
        let changed = try store.connection.query("SELECT type, row_table, added FROM import_run_changes")
        #expect(changed.count == 1)
        #expect(changed.first?[0] == .text("HKQuantityTypeIdentifierStepCount"))
        #expect(changed.first?[2] == .integer(2))
    }

    /// An anchor is rewritten only when its type's content changed: an unchanged type keeps the run that wrote it.
    @Test func anUnchangedTypeKeepsItsAnchor() throws {
        let store = try StoreFixture()
        let first = try RunRecorder(store.connection, hadData: false)
        try first.writeAnchors(
            Self.changes(added: 2, identities: [1, 2]), exportDate: "2024-03-01T09:00:00Z", scope: SampleFilter())
        try first.writeRun(ImportSummary())
        #expect(try store.integer("SELECT count(*) FROM anchors") == 2)
        #expect(
            try store.integer("SELECT row_count FROM anchors WHERE type = 'HKQuantityTypeIdentifierStepCount'") == 2)

        let second = try RunRecorder(store.connection, hadData: true)
        #expect(second.runID == 2)
        var changes = Self.changes(added: 1, identities: [1, 2, 3])
        changes["HKQuantityTypeIdentifierHeartRate"] =
            Self.changes(added: 0, identities: [])[
                "HKQuantityTypeIdentifierHeartRate"]
        try second.writeAnchors(changes, exportDate: "2024-04-01T09:00:00Z", scope: SampleFilter())
        let anchors = try store.connection.query(
            "SELECT type, row_count, run_id, export_date FROM anchors ORDER BY type")
        #expect(
            anchors.map { $0[0] } == [
                .text("HKQuantityTypeIdentifierHeartRate"), .text("HKQuantityTypeIdentifierStepCount"),
            ])
        #expect(anchors[0][2] == .integer(1))
        #expect(anchors[1][1] == .integer(3))
        #expect(anchors[1][2] == .integer(2))
        #expect(anchors[1][3] == .text("2024-04-01T09:00:00Z"))
    }

    @Test func aFilteredRunWritesNoAnchors() throws {
        let store = try StoreFixture()
        let recorder = try RunRecorder(store.connection, hadData: false)
        try recorder.writeAnchors(
            Self.changes(added: 2, identities: [1, 2]), exportDate: nil, scope: SampleFilter(sources: ["Phone"]))
        #expect(try store.integer("SELECT count(*) FROM anchors") == 0)
    }

    @Test func settingsAndLastIDsAreStoredForTheNextRun() throws {
        let store = try StoreFixture()
        let recorder = try RunRecorder(store.connection, hadData: false)
        try recorder.writeSetting("time_zone", "Europe/Berlin")
        try recorder.writeSetting("time_zone", "Asia/Tokyo")
        try recorder.writeLastIDs([("cumulative_samples", 120), ("workouts", 4)])
        #expect(try store.text("SELECT value FROM settings WHERE key = 'time_zone'") == "Asia/Tokyo")
        #expect(try store.text("SELECT value FROM settings WHERE key = 'last_id:cumulative_samples'") == "120")
        // The next run numbers on from there, even with no row left at that id.
        let ids = try LastRowIDs(store.connection)
        #expect(ids[.cumulative] == 120)
        #expect(ids[.workouts] == 4)
        #expect(ids[.discrete] == 0)
    }
}
