/// One run of healthetl, however it was asked for: `healthetl import` with flags builds one, and so does a
/// pipeline file (`healthetl run`). The export goes through the job's stages into SQLite; the CSV sink is
/// written from that database (a scratch one when there is no SQLite sink). With a PostgreSQL sink, the SQLite
/// database is the person's working copy (`PostgresImport`).
public struct PipelinePlan {
    public var job: ImportJob
    /// The SQLite sink's path; nil for CSV only.
    public var databasePath: String?
    public var csv: CSVOutput?
    /// The PostgreSQL sink: the server and person (instead of a SQLite database of one's own).
    public var postgres: PostgresDestination?

    public init(job: ImportJob, databasePath: String?, csv: CSVOutput?, postgres: PostgresDestination? = nil) {
        self.job = job
        self.databasePath = databasePath
        self.csv = csv
        self.postgres = postgres
    }

    public struct Result {
        public var summary: ImportSummary
        public var csv: CSVExportReport?
    }

    public func run() throws -> Result {
        if let postgres {
            guard databasePath == nil else {
                throw ImportError(.usage, "a run writes to PostgreSQL or to a SQLite database, not both")
            }
            return try PostgresImport(destination: postgres, job: job, csv: csv).run()
        }
        if let databasePath {
            var job = job
            job.databasePath = databasePath
            let summary = try job.run()
            return Result(summary: summary, csv: try csv?.write(from: databasePath))
        }
        guard let csv else {
            throw ImportError(.usage, "nothing to write", hint: "name a database (--db) or a CSV folder (--csv)")
        }
        let (summary, report) = try csv.importAndWrite(job)
        return Result(summary: summary, csv: report)
    }
}
