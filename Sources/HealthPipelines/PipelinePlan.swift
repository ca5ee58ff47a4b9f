import HTMLReport
import HealthCSV
import HealthImport
import HealthLake
import HealthModel
import HealthPostgres

/// One run of healthetl, however it was asked for: `healthetl import` with flags builds one, and so does a
/// pipeline file (`healthetl run`). The export goes through the job's stages into SQLite; the CSV sink and the
/// HTML report are written from that database (CSV from a scratch one when there is no SQLite sink). With a
/// PostgreSQL sink, the SQLite database is the person's working copy (`PostgresImport`).
public struct PipelinePlan {
    public var job: ImportJob
    /// The SQLite sink's path; nil for CSV only.
    public var databasePath: String?
    public var csv: CSVOutput?
    /// The PostgreSQL sink: the server and person (instead of a SQLite database of one's own).
    public var postgres: PostgresDestination?
    /// An HTML report drawn from the SQLite database after the import (needs `databasePath`).
    public var report: Report?
    /// The Parquet lake published from the database at the end of the run (the working copy with PostgreSQL,
    /// a scratch database without a database of its own).
    public var parquet: ParquetOutput?

    public struct ParquetOutput: Sendable, Equatable {
        public var folder: String
        /// The partition (`person=<id>`); nil: the lake of one database.
        public var person: String?
        public init(folder: String, person: String?) {
            self.folder = folder
            self.person = person
        }

        func publish(from database: String) throws -> LakeReport {
            try LakePublisher.publish(databasePath: database, to: folder, person: person)
        }
    }

    public struct Report: Sendable, Equatable {
        public var path: String
        public var options: ReportOptions
    }

    public init(job: ImportJob, databasePath: String?, csv: CSVOutput?, postgres: PostgresDestination? = nil) {
        self.job = job
        self.databasePath = databasePath
        self.csv = csv
        self.postgres = postgres
    }

    public struct Result {
        public var summary: ImportSummary
        public var csv: CSVExportReport?
        public var report: HealthReport.Result?
        package var lake: LakeReport?
    }

    public func run() throws -> Result {
        if let postgres {
            guard databasePath == nil else {
                throw ImportError(.usage, "a run writes to PostgreSQL or to a SQLite database, not both")
            }
            guard report == nil else {
                throw ImportError(.usage, "a report is drawn from a SQLite database, not from PostgreSQL")
            }
            var csvReport: CSVExportReport?
            var lakeReport: LakeReport?
            let alsoWrite: ((String) throws -> Void)? =
                csv == nil && parquet == nil
                ? nil
                : { workingCopy in
                    csvReport = try csv?.write(from: workingCopy)
                    lakeReport = try parquet?.publish(from: workingCopy)
                }
            let summary = try PostgresImport(destination: postgres, job: job, alsoWrite: alsoWrite).run()
            return Result(summary: summary, csv: csvReport, lake: lakeReport)
        }
        if let databasePath {
            var job = job
            job.databasePath = databasePath
            let summary = try job.run()
            let csvReport = try csv?.write(from: databasePath)
            let page = try report.map {
                try HealthReport.write(databasePath: databasePath, to: $0.path, options: $0.options)
            }
            let lake = try parquet?.publish(from: databasePath)
            return Result(summary: summary, csv: csvReport, report: page, lake: lake)
        }
        if report != nil {
            throw ImportError(.usage, "a report is drawn from a SQLite database", hint: "add a sqlite sink")
        }
        guard csv != nil || parquet != nil else {
            throw ImportError(.usage, "nothing to write", hint: "name a database (--db) or a CSV folder (--csv)")
        }
        return try (csv ?? CSVOutput(directory: parquet!.folder)).withScratchDatabase { scratch in
            var job = job
            job.databasePath = scratch
            let summary = try job.run()
            return Result(
                summary: summary, csv: try csv?.write(from: scratch), lake: try parquet?.publish(from: scratch))
        }
    }
}
