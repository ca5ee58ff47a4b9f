/// One run of healthetl, however it was asked for: `healthetl import` with flags builds one, and so does a
/// pipeline file (`healthetl run`). The export goes through the job's stages into SQLite; the CSV sink is
/// written from that database (a scratch one when there is no SQLite sink).
public struct PipelinePlan {
    public var job: ImportJob
    /// The SQLite sink's path; nil for CSV only.
    public var databasePath: String?
    public var csv: CSVOutput?

    public init(job: ImportJob, databasePath: String?, csv: CSVOutput?) {
        self.job = job
        self.databasePath = databasePath
        self.csv = csv
    }

    public struct Result {
        public var summary: ImportSummary
        public var csv: CSVExportReport?
    }

    public func run() throws -> Result {
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
