import HealthModel

/// One step of a back end's migrations: what brings a database written as schema `from` to schema `to`.
///
/// `to` is usually `from + 1`, but a step may land further: version 4's step writes version 6's `baselines`
/// directly, so a version 4 database never passes through version 5 (the step from 5 is for databases that
/// are at 5).
package struct MigrationStep<Database> {
    package let from: Int
    package let to: Int
    /// What the steps leave for after the last one (see `MigrationAftermath`).
    package let aftermath: MigrationAftermath
    package let run: (Database) throws -> Void

    package init(
        from: Int, to: Int, aftermath: MigrationAftermath = [], _ run: @escaping (Database) throws -> Void
    ) {
        self.from = from
        self.to = to
        self.aftermath = aftermath
        self.run = run
    }
}

/// Work a migration leaves for after its last step, done once whichever steps ran: it needs the finished
/// schema (a step computing it would compute on a schema the next steps still change), or code outside
/// `HealthSchema` (`BaselineTable`), or the end of the run (the commit).
package struct MigrationAftermath: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// `baselines` was created empty: compute it from the rollups the database has.
    package static let computesBaselines = MigrationAftermath(rawValue: 1 << 0)
    /// Large tables were copied and dropped: the commit gives their pages back (VACUUM).
    package static let compactsFile = MigrationAftermath(rawValue: 1 << 1)
}

/// Brings a database to `target` by one loop over a back end's steps, in order of their `from`: every step
/// from the database's version on runs, except those a step before it jumped over; the version is recorded
/// after each. The steps run in the caller's transaction (SQLite: the run's `BEGIN IMMEDIATE`; PostgreSQL:
/// `PostgresSession.ensureSchema`'s, under the schema lock), so a migration that fails or is killed leaves
/// the database at the version it had. The shape is GRDB's `DatabaseMigrator`, keyed by the version numbers
/// that files and servers already carry.
///
/// The lists: `SQLiteMigrations.steps` here, `PostgresMigrations.steps` in `HealthPostgres`.
package struct SchemaMigrator<Database> {
    /// How messages name what is migrated: "the database", "the PostgreSQL schema healthetl".
    package let subject: String
    package let steps: [MigrationStep<Database>]
    /// Writes the version a step reached, in the same transaction.
    package let recordVersion: (Database, Int) throws -> Void
    /// What a user whose database cannot be migrated can do instead, if anything.
    package let startAfresh: String?
    /// The version this healthetl writes.
    package let target: Int

    package init(
        subject: String, steps: [MigrationStep<Database>], startAfresh: String?, target: Int = Schema.userVersion,
        recordVersion: @escaping (Database, Int) throws -> Void
    ) {
        self.subject = subject
        self.steps = steps.sorted { $0.from < $1.from }
        self.startAfresh = startAfresh
        self.target = target
        self.recordVersion = recordVersion
    }

    /// Runs the steps from `version` (none when it is `target`); returns what they left for afterwards.
    /// Refuses, before any step runs, a database of a later version or of one no chain of steps starts from.
    package func migrate(_ database: Database, from version: Int, file: String?) throws -> MigrationAftermath {
        guard version <= target else {
            throw ImportError(
                .output, "\(subject) was written by a later healthetl (schema version \(version), expected \(target))",
                file: file,
                hint: (["use the healthetl version that wrote it"] + [startAfresh].compactMap { $0 })
                    .joined(separator: ", or "))
        }
        guard let path = path(from: version) else {
            throw ImportError(
                .output,
                "\(subject) was written by a healthetl this one cannot upgrade (schema version \(version), expected "
                    + "\(target))", file: file, hint: startAfresh)
        }
        var aftermath: MigrationAftermath = []
        for step in path {
            try step.run(database)
            try recordVersion(database, step.to)
            aftermath.formUnion(step.aftermath)
        }
        return aftermath
    }

    /// The steps that bring `version` to `target`, in order: each one from where the one before it landed, so a
    /// step another jumps over is left out. Nil when they do not reach `target` (no step starts somewhere).
    package func path(from version: Int) -> [MigrationStep<Database>]? {
        var reached = version
        var path: [MigrationStep<Database>] = []
        for step in steps where step.from >= reached && reached < target {
            guard step.from == reached else { return nil }
            path.append(step)
            reached = step.to
        }
        return reached == target ? path : nil
    }
}
