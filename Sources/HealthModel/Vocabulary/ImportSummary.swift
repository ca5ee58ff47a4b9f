/// What a run did, for the terminal, for `--json` and for `import_runs.summary_json`.
public struct ImportSummary: Codable, Sendable, Equatable {
    public var toolVersion = HealthETLVersion.current
    public var input: String = ""
    public var inputKind: String = ""
    public var mainEntry: String = ""
    public var inputBytes: UInt64 = 0
    public var xmlBytes: UInt64 = 0
    public var locale: String?
    /// `ExportDate`, UTC.
    public var exportDate: String?
    public var exportUTCOffset: String?
    public var timeZone: String = ""
    public var startedAt: String = ""
    public var finishedAt: String = ""
    public var seconds: Double = 0
    /// Items read, by kind (`records`, `workouts`, …).
    public var items: [String: Int] = [:]
    /// Rows written, by table.
    public var rows: [String: Int] = [:]
    /// Records not stored, by reason (exact duplicates, superseded sync versions).
    public var dropped: [String: Int] = [:]
    /// What each stage changed or dropped, by stage name (`units`, `valence`).
    public var stages: [String: [String: Int]] = [:]
    /// Records kept but flagged, by flag name.
    public var flagged: [String: Int] = [:]
    /// Counted warnings, by message.
    public var warnings: [String: Int] = [:]
    public var removedControlCharacters = 0
    /// `ok`, `unchanged` (same input as the last successful run: nothing done), `refused`, `failed`.
    public var outcome = "ok"
    public var error: String?
    /// Hash of the input's table of contents and of the options (see `ImportJob.inputFingerprint`).
    public var inputFingerprint: String?
    /// What the run did to the database, per type (the export's identifier, `HKWorkoutTypeIdentifier`).
    public var changes: [String: TypeChanges] = [:]
    /// Time spent rebuilding the rollups (part of `seconds`).
    public var rollupSeconds: Double?
    /// What an import into PostgreSQL sent to the server (nil for SQLite and CSV).
    public var postgres: PostgresReport?

    public struct PostgresReport: Codable, Sendable, Equatable {
        public var person: String
        /// Earlier rows copied out of the server into the working copy (0 for a first import).
        public var rowsCheckedOut: Int
        /// Whether a working copy kept from an earlier run on this machine replaced the check-out.
        public var keptWorkingCopy: Bool
        /// Rows copied to the server: all of them for a person's first import, else only those that changed.
        public var rowsSent: Int
        /// Earlier rows deleted on the server because they changed or went away.
        public var rowsDeleted: Int
        /// Copying the person's earlier rows out into the working copy (part of `seconds`).
        public var checkoutSeconds: Double
        /// Sending the changes (part of `seconds`).
        public var publishSeconds: Double

        /// Memberwise, for the other targets.
        package init(
            person: String, rowsCheckedOut: Int, keptWorkingCopy: Bool, rowsSent: Int, rowsDeleted: Int,
            checkoutSeconds: Double, publishSeconds: Double
        ) {
            self.person = person
            self.rowsCheckedOut = rowsCheckedOut
            self.keptWorkingCopy = keptWorkingCopy
            self.rowsSent = rowsSent
            self.rowsDeleted = rowsDeleted
            self.checkoutSeconds = checkoutSeconds
            self.publishSeconds = publishSeconds
        }
    }

    public init() {}

    /// Added, replaced, deleted and unchanged rows over all types.
    public var changeTotals: (added: Int, replaced: Int, deleted: Int, unchanged: Int) {
        changes.values.reduce((0, 0, 0, 0)) {
            ($0.0 + $1.added, $0.1 + $1.replaced, $0.2 + $1.deleted, $0.3 + $1.unchanged)
        }
    }

    /// A measured duration in the summary's unit (seconds, as a fraction).
    package static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    public var xmlMegabytesPerSecond: Double {
        seconds > 0 ? Double(xmlBytes) / 1_000_000 / seconds : 0
    }
}

public enum HealthETLVersion {
    public static let current = "0.1.0"
}
