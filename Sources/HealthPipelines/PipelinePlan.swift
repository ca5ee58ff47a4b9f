import HTMLReport
import HealthCSV
import HealthImport
import HealthModel
import HealthPostgres

/// One run of healthetl, however it was asked for: `healthetl import` with flags builds one, and so does a
/// pipeline file (`healthetl run`). The export goes through the job's stages into SQLite, then every output
/// (`RunOutput`: CSV, the HTML report, …) is written from that database, in order. Without a database of its
/// own, the run imports into a scratch database that its first output hosts. With a PostgreSQL sink, the SQLite
/// database is the person's working copy (`PostgresImport`).
public struct PipelinePlan {
    public var job: ImportJob
    /// The SQLite sink's path; nil when the run keeps no SQLite database.
    public var databasePath: String?
    /// The PostgreSQL sink: the server and person (instead of a SQLite database of one's own).
    public var postgres: PostgresDestination?
    /// What is written from the database after the import, in order.
    public var outputs: [any RunOutput]

    public init(
        job: ImportJob, databasePath: String?, outputs: [any RunOutput] = [], postgres: PostgresDestination? = nil
    ) {
        self.job = job
        self.databasePath = databasePath
        self.outputs = outputs
        self.postgres = postgres
    }

    public init(job: ImportJob, databasePath: String?, csv: CSVOutput?, postgres: PostgresDestination? = nil) {
        self.init(job: job, databasePath: databasePath, outputs: csv.map { [$0] } ?? [], postgres: postgres)
    }

    /// The CSV output, if the run writes one.
    public var csv: CSVOutput? { outputs.lazy.compactMap { $0 as? CSVOutput }.first }

    /// Where the run's data goes, as its summary names it: the server's person, the database, or the output
    /// that hosts the scratch database.
    public var destination: String { postgres?.displayName ?? databasePath ?? outputs.first?.destination ?? "" }

    public struct Result {
        public var summary: ImportSummary
        /// What each output wrote, in the plan's order.
        public var outputs: [RunOutputResult] = []

        public var csv: CSVExportReport? { outputs.lazy.compactMap { $0.detail as? CSVExportReport }.first }
        public var report: HealthReport.Result? {
            outputs.lazy.compactMap { $0.detail as? HealthReport.Result }.first
        }
    }

    public func run() throws -> Result {
        let drawnFromKept = outputs.first { $0.needsKeptDatabase }
        if let postgres {
            guard databasePath == nil else {
                throw ImportError(.usage, "a run writes to PostgreSQL or to a SQLite database, not both")
            }
            if let drawnFromKept {
                throw ImportError(.usage, "a \(drawnFromKept.key) is drawn from a SQLite database, not from PostgreSQL")
            }
            var written: [RunOutputResult] = []
            let writeOutputs =
                outputs.isEmpty
                ? nil : { (workingCopy: String) in written = try Self.write(outputs, from: workingCopy) }
            let summary = try PostgresImport(destination: postgres, job: job, alsoWrite: writeOutputs).run()
            return Result(summary: summary, outputs: written)
        }
        if let databasePath {
            var job = job
            job.databasePath = databasePath
            let summary = try job.run()
            return Result(summary: summary, outputs: try Self.write(outputs, from: databasePath))
        }
        if let drawnFromKept {
            throw ImportError(
                .usage, "a \(drawnFromKept.key) is drawn from a SQLite database", hint: "add a sqlite sink")
        }
        guard let host = outputs.first else {
            throw ImportError(.usage, "nothing to write", hint: "name a database (--db) or a CSV folder (--csv)")
        }
        let result = try host.hostScratchDatabase { scratch in
            var job = job
            job.databasePath = scratch
            let summary = try job.run()
            return Result(summary: summary, outputs: try Self.write(outputs, from: scratch))
        }
        guard let result else {
            throw ImportError(
                .usage, "a \(host.key) output needs a database to be written from", hint: "add a sqlite sink")
        }
        return result
    }

    private static func write(_ outputs: [any RunOutput], from database: String) throws -> [RunOutputResult] {
        try outputs.map { try $0.produce(from: database) }
    }
}
