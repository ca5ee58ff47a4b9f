import HealthModel
import HealthSchema

/// `healthetl status --person P`: the same report as for a SQLite database, for one person on the server.
/// Read-only and without the person's lock: one consistent snapshot, so it can run during an import.
package enum PostgresStatus {
    package static func read(_ destination: PostgresDestination, runCount: Int = 10) throws -> DatabaseStatus {
        let connection = try PostgresSession.connect(destination)
        do {
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { try? connection.execute("COMMIT") }
            guard try connection.scalar("SELECT to_regclass($1)", ["\(PostgresSchema.name).schema_info"]) != nil,
                try connection.scalar(
                    "SELECT EXISTS (SELECT 1 FROM \(PostgresSchema.name).import_runs WHERE person = $1)",
                    [destination.person]) == "t"
            else {
                throw ImportError(
                    .usage, "no data for this person on the server", file: destination.displayName,
                    hint: "run healthetl import --person first")
            }
            // The report reads the bookkeeping from a small check-out, the totals from the server.
            let workspace = try PostgresWorkspace()
            defer { workspace.remove() }
            _ = try PostgresCheckout.checkout(
                connection, person: destination.person, into: workspace.databasePath,
                only: PostgresWorkingCopies.comparedTables)
            var status = try DatabaseStatus.read(path: workspace.databasePath, runCount: runCount)
            status.path = destination.displayName
            status.bytes = 0
            for table in status.totals.keys {
                let count = try connection.scalar(
                    "SELECT count(*) FROM \(PostgresSchema.name).\"\(table)\" WHERE person = $1", [destination.person])
                status.totals[table] = Int64(count ?? "") ?? 0
            }
            return status
        } catch let error as PostgresError {
            throw ImportError(
                connection.isBroken ? .unavailable : .output, "\(error)", file: destination.displayName)
        }
    }
}
