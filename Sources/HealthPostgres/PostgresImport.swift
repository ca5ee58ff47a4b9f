import Foundation
import Glibc
import HealthModel
import HealthSQLite
import HealthStore

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
package struct PostgresImport {
    var destination: PostgresDestination
    package var job: any DatabaseImport
    /// What else the run writes from the working copy once it is imported, before the commit (the CSV
    /// folder): a failure there rolls the person's changes back.
    package var alsoWrite: ((_ workingCopyPath: String) throws -> Void)?

    package func run() throws -> ImportSummary {
        let session = try PostgresSession(destination, lockTimeoutSeconds: job.lockTimeoutSeconds)
        let workspace = try PostgresWorkspace()
        defer { workspace.remove() }
        let clock = ContinuousClock()
        let started = clock.now
        let copy: WorkingCopy
        do {
            switch try prepareWorkingCopy(session, workspace) {
            case .finished(let result): return result
            case .ready(let ready): copy = ready
            }
        } catch {
            session.rollback()
            throw session.describe(error)
        }
        let (hadData, kept, checkedOut) = (copy.hadData, copy.kept, copy.rowsCheckedOut)
        // From here on, any failure leaves a kept copy that may be ahead of the server: it goes.
        var succeeded = false
        defer { if !succeeded, let kept { PostgresWorkingCopies.discard(kept) } }
        let checkoutSeconds = ImportSummary.seconds(clock.now - started)
        var summary: ImportSummary
        do {
            summary = try job.run(into: copy.path, label: destination.displayName)
        } catch {
            // A failed run of an existing person is recorded in its `import_runs`, as with SQLite; a failed
            // first import leaves nothing.
            if hadData, FileManager.default.fileExists(atPath: copy.path) {
                do {
                    _ = try PostgresPublish.publish(
                        from: copy.path, to: session.connection, person: destination.person, onlyChanges: true)
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
                from: copy.path, to: session.connection, person: destination.person, onlyChanges: hadData)
            summary.postgres = ImportSummary.PostgresReport(
                person: destination.person, rowsCheckedOut: checkedOut, keptWorkingCopy: copy.reused,
                rowsSent: counts.rowsSent, rowsDeleted: counts.rowsDeleted, checkoutSeconds: checkoutSeconds,
                publishSeconds: ImportSummary.seconds(clock.now - publishStarted))
            try alsoWrite?(copy.path)
            try session.commit()
            // The data is committed: a copy that cannot be kept is only not kept.
            if let kept, !hadData, (try? PostgresWorkingCopies.keep(kept)) == nil {
                PostgresWorkingCopies.discard(kept)
            }
            succeeded = true
            summary.seconds = ImportSummary.seconds(clock.now - started)
            return summary
        } catch {
            session.rollback()
            throw session.describe(error)
        }
    }

    /// The file the job will run on, and how it came to be.
    struct WorkingCopy {
        var path: String
        /// The person had data on the server (so only changes are published).
        var hadData: Bool
        /// The kept copy's path, with `--working-copy`.
        var kept: String?
        var reused = false
        var rowsCheckedOut = 0
    }

    enum Preparation {
        case ready(WorkingCopy)
        /// The same zip again, done from the bookkeeping alone.
        case finished(ImportSummary)
    }

    /// A kept copy that is current; else the same-zip shortcut; else a check-out (none for a first import).
    private func prepareWorkingCopy(_ session: PostgresSession, _ workspace: PostgresWorkspace) throws -> Preparation {
        let hadData = try session.personHasData()
        var copy = WorkingCopy(path: workspace.databasePath, hadData: hadData)
        if let folder = destination.workingCopies {
            copy.kept = try PostgresWorkingCopies(directory: folder).path(
                database: session.databaseName(), person: destination.person)
        }
        do {
            if hadData, let kept = copy.kept,
                try PostgresWorkingCopies.isCurrent(
                    kept, session: session, scratch: workspace.directory + "/server.sqlite")
            {
                try PostgresWorkingCopies.reuse(kept)
                copy.path = kept
                copy.reused = true
                return .ready(copy)
            }
            // Not with a kept copy to refresh: the shortcut would leave it behind the server.
            if hadData, copy.kept == nil, let result = try sameExportAgain(session, workspace) {
                return .finished(result)
            }
            if let kept = copy.kept {
                PostgresWorkingCopies.discard(kept)
                copy.path = kept
            }
            if hadData {
                copy.rowsCheckedOut = try PostgresCheckout.checkout(
                    session.connection, person: destination.person, into: copy.path)
            }
            return .ready(copy)
        } catch {
            if let kept = copy.kept { PostgresWorkingCopies.discard(kept) }
            throw error
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
        -> ImportSummary?
    {
        guard !job.rescan, alsoWrite == nil, let expected = try? job.expectedInputFingerprint(),
            try session.lastInputFingerprint() == expected
        else { return nil }
        let clock = ContinuousClock()
        let started = clock.now
        let bookkeeping = workspace.directory + "/bookkeeping.sqlite"
        defer { try? FileManager.default.removeItem(atPath: bookkeeping) }
        let checkedOut = try PostgresCheckout.checkout(
            session.connection, person: destination.person, into: bookkeeping, only: Self.bookkeepingTables)
        let checkoutSeconds = ImportSummary.seconds(clock.now - started)
        let settingsBefore = try Self.settings(in: bookkeeping)
        guard var summary = try? job.run(into: bookkeeping, label: destination.displayName),
            summary.outcome == "unchanged",
            try Self.settings(in: bookkeeping) == settingsBefore,
            try PostgresPublish.changedTables(in: bookkeeping).isSubset(of: Self.bookkeepingTables)
        else { return nil }
        let publishStarted = clock.now
        let counts = try PostgresPublish.publish(
            from: bookkeeping, to: session.connection, person: destination.person, onlyChanges: true)
        summary.postgres = ImportSummary.PostgresReport(
            person: destination.person, rowsCheckedOut: checkedOut, keptWorkingCopy: false,
            rowsSent: counts.rowsSent, rowsDeleted: counts.rowsDeleted, checkoutSeconds: checkoutSeconds,
            publishSeconds: ImportSummary.seconds(clock.now - publishStarted))
        try session.commit()
        summary.seconds = ImportSummary.seconds(clock.now - started)
        return summary
    }

    /// Memberwise, for the other targets.
    package init(
        destination: PostgresDestination, job: any DatabaseImport,
        alsoWrite: ((_ workingCopyPath: String) throws -> Void)? = nil
    ) {
        self.destination = destination
        self.job = job
        self.alsoWrite = alsoWrite
    }
}
