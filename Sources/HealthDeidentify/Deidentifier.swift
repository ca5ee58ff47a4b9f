import Foundation
import HealthModel
import HealthSQLite
import HealthSchema
import HealthStore

/// `healthetl deidentify`: a new database with the same schema whose rows went through `DeidentificationRules`.
///
/// The copy is a fresh file made by the store's own schema preparation (so every view and index works) and filled
/// by `INSERT … SELECT` from the original, attached read-only in spirit (only ever selected from), in one
/// transaction: no page of it ever held a removed value. It is written owner-only beside the output and renamed
/// when complete; a failure leaves nothing.
package enum Deidentifier {
    package struct Options: Sendable {
        package var routes: DeidentificationRules.Routes = .drop
        package var shiftDates = false
        /// The person of a cohort (PostgreSQL `person`): mixed into the date shift; its pseudonym is recorded.
        package var person: String?
        /// Replace an existing output (a nightly run); otherwise an existing output is refused.
        package var replaceOutput = false
        /// Keep source names that are on no list of known apps (`KnownHealthApps`) instead of pseudonymising
        /// them: for a person who checked that none of their apps is named after anyone.
        package var keepUnknownApps = false

        package init() {}
    }

    package struct Summary: Sendable {
        /// Rows written per stored table.
        package var rows: [String: Int] = [:]
        package var keyFingerprint = ""
        package var personPseudonym: String?
        package var counts = DeidentificationCounts()
        package var bytes: Int64 = 0
    }

    /// Writes the de-identified copy of `databasePath` to `outputPath` with the key in `keyPath`.
    @discardableResult
    package static func run(databasePath: String, outputPath: String, keyPath: String, options: Options) throws
        -> Summary
    {
        let key = try DeidentificationKey.load(path: keyPath, person: options.person)
        try checkPaths(input: databasePath, output: outputPath, replace: options.replaceOutput)
        let source = try StoredDatabase.openForReading(databasePath)
        let context = try StoredDatabase.read(databasePath) {
            try DeidentificationContext.read(source, key: key, options: options)
        }
        let temporaryPath = outputPath + ".tmp"
        removeDatabaseFiles(temporaryPath)
        var published = false
        defer { if !published { removeDatabaseFiles(temporaryPath) } }
        let descriptor = open(temporaryPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ImportError(.output, "cannot create \(temporaryPath): \(SystemError.last)", file: outputPath)
        }
        close(descriptor)
        var summary = Summary()
        summary.keyFingerprint = key.fingerprint
        summary.personPseudonym = key.personPseudonym
        do {
            let connection = try SQLiteConnection(path: temporaryPath, create: false)
            // Ctrl-C stops the statement running and unwinds here, deleting the unfinished copy (a second one
            // deletes it and exits at once). No lock file: the copy is nobody else's to wait for.
            Interruption.watch(
                connection: connection, lockPath: temporaryPath + ".no-lock", temporaryPath: temporaryPath)
            defer { Interruption.stopWatching() }
            // A new file nobody sees until it is renamed: no journal to keep, synced once at the end.
            // The page size and cache of a new database's import (`SQLiteTarget`).
            try connection.execute(
                "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 16384; PRAGMA cache_size = -8192"
            )
            try Schema.createTables(connection)
            try connection.execute("ATTACH DATABASE \(sqlText(databasePath)) AS source")
            let functions = DeidentificationFunctions(context: context)
            try functions.register(on: connection)
            try functions.writeMetadataKeyClasses(connection)
            try connection.execute("BEGIN")
            // The schema's dictionary rows are copied from the original like any other rows.
            try connection.execute("DELETE FROM parent_tables")
            let rules = DeidentificationRules.tables(routes: options.routes, shiftDates: options.shiftDates)
            let sql = TableCopySQL(shiftDays: options.shiftDates ? key.shiftWeeks * 7 : 0)
            for table in Schema.tables {
                guard let rule = rules[table.name] else {
                    throw ImportError(
                        .internal, "no de-identification rule for the table \(table.name): nothing written",
                        file: databasePath)
                }
                try Interruption.check(file: outputPath)
                guard let statement = try sql.copy(table, rule) else { continue }
                try connection.execute(statement)
                summary.rows[table.name] = Int(try connection.scalar("SELECT changes()").integer ?? 0)
            }
            summary.counts = functions.counts
            summary.counts.metadataDropped =
                context.sourceRowCounts["metadata_rows", default: 0] - summary.rows["metadata_rows", default: 0]
            summary.counts.rowsEmptied = rules.filter { if case .empty = $0.value { true } else { false } }
                .reduce(0) { $0 + context.sourceRowCounts[$1.key, default: 0] }
            try recordRun(connection, summary: summary, options: options)
            try connection.execute("COMMIT")
            try connection.execute("DETACH DATABASE source")
            try Schema.createIndexes(connection)
            // The import's sampled statistics, so the copy's queries are planned as the original's.
            try connection.execute("PRAGMA analysis_limit = 1000; ANALYZE")
        } catch let error as SQLiteError {
            try Interruption.check(file: outputPath)
            throw ImportError(.output, "cannot write the copy: \(error)", file: outputPath)
        }
        try syncFile(temporaryPath, name: outputPath)
        guard rename(temporaryPath, outputPath) == 0 else {
            throw ImportError(.output, "cannot move \(temporaryPath) into place: \(SystemError.last)", file: outputPath)
        }
        published = true
        syncDirectory(of: outputPath)
        var status = stat()
        if stat(outputPath, &status) == 0 { summary.bytes = Int64(status.st_size) }
        return summary
    }

    /// Refuses an output that exists (unless replacing) or that is the input itself, before anything is written.
    static func checkPaths(input: String, output: String, replace: Bool) throws {
        try StoredDatabase.requireFile(input)
        let inputReal = URL(fileURLWithPath: input).resolvingSymlinksInPath().path
        let outputURL = URL(fileURLWithPath: output)
        let outputReal =
            outputURL.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(
                outputURL.lastPathComponent
            ).resolvingSymlinksInPath().path
        var inputStatus = stat()
        var outputStatus = stat()
        let sameFile =
            stat(input, &inputStatus) == 0 && stat(output, &outputStatus) == 0
            && inputStatus.st_dev == outputStatus.st_dev && inputStatus.st_ino == outputStatus.st_ino
        if sameFile || inputReal == outputReal {
            throw ImportError(.usage, "the output is the input database itself", file: output)
        }
        if !replace, FileManager.default.fileExists(atPath: output) {
            throw ImportError(.usage, "the output exists", file: output, hint: "choose a new path, or pass --replace")
        }
        guard access(outputURL.deletingLastPathComponent().path, W_OK) == 0 else {
            throw ImportError(.output, "cannot write in the output's folder: \(SystemError.last)", file: output)
        }
    }

    /// The record of this run inside the copy: the `deidentification` setting, as JSON.
    static func recordRun(_ connection: SQLiteConnection, summary: Summary, options: Options) throws {
        var record: [String: Any] = [
            "tool": "healthetl deidentify", "key_fingerprint": summary.keyFingerprint,
            "routes": options.routes.rawValue, "dates_shifted": options.shiftDates,
            "unknown_apps": options.keepUnknownApps ? "kept" : "pseudonymised",
            "rows": summary.rows, "counts": summary.counts.dictionary,
        ]
        if let person = summary.personPseudonym { record["person"] = person }
        let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
        let insert = try connection.prepare("INSERT INTO settings (key, value) VALUES ('deidentification', ?1)")
        try insert.run([.text(String(decoding: data, as: UTF8.self))])
    }

    static func sqlText(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    static func syncFile(_ path: String, name: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw ImportError(.output, "cannot write \(path): \(SystemError.last)", file: name)
        }
        close(descriptor)
    }

    static func syncDirectory(of path: String) {
        let descriptor = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
