import Foundation
import Glibc

/// Where a run's rows go in PostgreSQL: a server, and the person whose export it is.
public struct PostgresDestination: Sendable, Equatable {
    /// A `postgresql://` URL or `key=value` string; empty for libpq's `PG*` environment variables.
    public var connection: String
    public var person: String
    /// A folder to keep the person's working copy in between runs (`--working-copy`); nil: none is kept.
    public var workingCopies: String?

    public init(connection: String, person: String, workingCopies: String? = nil) {
        self.connection = connection
        self.person = person
        self.workingCopies = workingCopies
    }

    /// Names the person in messages without the connection string, which may hold a password.
    var displayName: String { "PostgreSQL person \(person)" }

    /// A person id is free text, but printed in messages and logs: no control characters, not blank.
    static func checkPerson(_ person: String) throws(UsageError) {
        guard !person.trimmingCharacters(in: .whitespaces).isEmpty, person.utf8.count <= 200,
            !person.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw UsageError(message: "The value '\(person)' is invalid for '--person <id>' (1–200 printable characters)")
        }
    }
}

/// An import into PostgreSQL: the same job, stages and SQLite sink as any import, run on a private working
/// copy of the person's data, inside one PostgreSQL transaction that holds the person's advisory lock:
///
/// 1. lock the person (other people's importers are not blocked; the same person's wait, then fail clearly),
/// 2. check out the person's rows into a new SQLite file (none for a first import),
/// 3. run the import on it, exactly as into a SQLite database of one's own,
/// 4. publish the rows it changed with `COPY`, and commit.
///
/// So dedup, re-import matching, deletions, anchors and rollups have one implementation, and a killed importer
/// leaves PostgreSQL as it was (its transaction dies with its connection). See docs/postgres.md.
struct PostgresImport {
    var destination: PostgresDestination
    var job: ImportJob
    var csv: CSVOutput?

    func run() throws -> PipelinePlan.Result {
        let session = try PostgresSession(destination, lockTimeoutSeconds: job.lockTimeoutSeconds)
        let workspace = try PostgresWorkspace()
        defer { workspace.remove() }
        let clock = ContinuousClock()
        let started = clock.now
        let hadData: Bool
        var job = job
        job.databasePath = workspace.databasePath
        job.databaseLabel = destination.displayName
        var checkedOut = 0
        var kept: String?  // the kept working copy's path, with --working-copy
        var reused = false
        do {
            hadData = try session.personHasData()
            if let folder = destination.workingCopies {
                kept = try PostgresWorkingCopies(directory: folder).path(
                    database: session.databaseName(), person: destination.person)
            }
            if hadData, let kept,
                try PostgresWorkingCopies.isCurrent(kept, session: session, scratch: workspace.directory + "/server.sqlite")
            {
                try PostgresWorkingCopies.reuse(kept)
                job.databasePath = kept
                reused = true
            } else {
                // Not with a kept copy to refresh: the shortcut would leave it behind the server.
                if hadData, kept == nil, let result = try sameExportAgain(session, workspace) { return result }
                if let kept {
                    PostgresWorkingCopies.discard(kept)
                    job.databasePath = kept
                }
                if hadData {
                    checkedOut = try PostgresCheckout.checkout(
                        session.connection, person: destination.person, into: job.databasePath)
                }
            }
        } catch {
            session.rollback()
            if let kept { PostgresWorkingCopies.discard(kept) }
            throw session.describe(error)
        }
        // From here on, any failure leaves a kept copy that may be ahead of the server: it goes.
        var succeeded = false
        defer { if !succeeded, let kept { PostgresWorkingCopies.discard(kept) } }
        let checkoutSeconds = ImportJob.seconds(clock.now - started)
        var summary: ImportSummary
        do {
            summary = try job.run()
        } catch {
            // A failed run of an existing person is recorded in its `import_runs`, as with SQLite; a failed
            // first import leaves nothing.
            if hadData, FileManager.default.fileExists(atPath: job.databasePath) {
                do {
                    _ = try PostgresPublish.publish(
                        from: job.databasePath, to: session.connection, person: destination.person, onlyChanges: true)
                    try session.commit()
                } catch { session.rollback() }
            } else {
                session.rollback()
            }
            throw error
        }
        let publishStarted = clock.now
        do {
            let counts = try PostgresPublish.publish(
                from: job.databasePath, to: session.connection, person: destination.person, onlyChanges: hadData)
            summary.postgres = ImportSummary.PostgresReport(
                person: destination.person, rowsCheckedOut: checkedOut, keptWorkingCopy: reused,
                rowsSent: counts.rowsSent, rowsDeleted: counts.rowsDeleted, checkoutSeconds: checkoutSeconds,
                publishSeconds: ImportJob.seconds(clock.now - publishStarted))
            let report = try csv?.write(from: job.databasePath)
            try session.commit()
            // The data is committed: a copy that cannot be kept is only not kept.
            if let kept, !hadData, (try? PostgresWorkingCopies.keep(kept)) == nil { PostgresWorkingCopies.discard(kept) }
            succeeded = true
            summary.seconds = ImportJob.seconds(clock.now - started)
            return PipelinePlan.Result(summary: summary, csv: report)
        } catch {
            session.rollback()
            throw session.describe(error)
        }
    }

    private static func settings(in path: String) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: path, create: false).query("SELECT key, value FROM settings ORDER BY key")
    }

    /// The run-bookkeeping tables: all that a run of the same export again writes.
    static let bookkeepingTables: Set = ["import_runs", "import_warnings", "import_run_changes", "settings"]

    /// The same zip as the person's last successful run: checking out all their rows only to find nothing to
    /// read would cost seconds per person, every night. So when the fingerprints match, only the bookkeeping
    /// tables are checked out and the job runs on those. Its result is used only if the job itself found the
    /// export unchanged, wrote nothing but bookkeeping, and left every setting as it was (a new time zone or
    /// rollup options rebuild the rollups from the samples, which this copy does not have); otherwise it is
    /// thrown away and the full run follows. So the shortcut can make a run slower, never different
    /// (`theSameZipAgainIsQuickAndStillExact`).
    private func sameExportAgain(_ session: PostgresSession, _ workspace: PostgresWorkspace) throws
        -> PipelinePlan.Result?
    {
        guard !job.rescan, csv == nil, let expected = try? job.expectedInputFingerprint(),
            try session.lastInputFingerprint() == expected
        else { return nil }
        let clock = ContinuousClock()
        let started = clock.now
        var quick = job
        quick.databasePath = workspace.directory + "/bookkeeping.sqlite"
        quick.databaseLabel = destination.displayName
        defer { try? FileManager.default.removeItem(atPath: quick.databasePath) }
        let checkedOut = try PostgresCheckout.checkout(
            session.connection, person: destination.person, into: quick.databasePath, only: Self.bookkeepingTables)
        let checkoutSeconds = ImportJob.seconds(clock.now - started)
        let settingsBefore = try Self.settings(in: quick.databasePath)
        guard var summary = try? quick.run(), summary.outcome == "unchanged",
            try Self.settings(in: quick.databasePath) == settingsBefore,
            try PostgresPublish.changedTables(in: quick.databasePath).isSubset(of: Self.bookkeepingTables)
        else { return nil }
        let publishStarted = clock.now
        let counts = try PostgresPublish.publish(
            from: quick.databasePath, to: session.connection, person: destination.person, onlyChanges: true)
        summary.postgres = ImportSummary.PostgresReport(
            person: destination.person, rowsCheckedOut: checkedOut, keptWorkingCopy: false,
            rowsSent: counts.rowsSent, rowsDeleted: counts.rowsDeleted, checkoutSeconds: checkoutSeconds,
            publishSeconds: ImportJob.seconds(clock.now - publishStarted))
        try session.commit()
        summary.seconds = ImportJob.seconds(clock.now - started)
        return PipelinePlan.Result(summary: summary, csv: nil)
    }
}

/// A private folder for the working copy (mode 0700, under `TMPDIR`), removed when the run ends; those of
/// killed runs are removed by the next run.
struct PostgresWorkspace {
    let directory: String
    var databasePath: String { directory + "/working.sqlite" }

    private static let prefix = "healthetl-postgres-"

    init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        Self.removeStale(in: base)
        var template = Array("\(base)/\(Self.prefix)\(getpid())-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ImportError(
                .output, "cannot create a working folder in \(base): \(String(cString: strerror(errno)))",
                hint: "set TMPDIR to a writable folder with room for a copy of the person's data")
        }
        directory = String(cString: made)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// Folders whose process is gone were left by a killed run.
    private static func removeStale(in base: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pidText), SQLiteTarget.processIsGone(pid) else { continue }
            try? FileManager.default.removeItem(atPath: base + "/" + name)
        }
    }
}
