import HTMLReport
import HealthCSV
import HealthDeidentify
import HealthImport
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

    public struct Report: Sendable, Equatable {
        public var path: String
        public var options: ReportOptions
    }

    /// A de-identified copy of the SQLite database, written after the import (needs `databasePath`).
    public var deidentify: PipelineDefinition.DeidentifyOutput?

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
        package var deidentified: Deidentifier.Summary?
    }

    public func run() throws -> Result {
        if let postgres {
            guard databasePath == nil else {
                throw ImportError(.usage, "a run writes to PostgreSQL or to a SQLite database, not both")
            }
            guard report == nil, deidentify == nil else {
                throw ImportError(
                    .usage, "a report or a de-identified copy is made from a SQLite database, not from PostgreSQL")
            }
            var csvReport: CSVExportReport?
            let csvWrite = csv.map { csv in { (workingCopy: String) in csvReport = try csv.write(from: workingCopy) } }
            let summary = try PostgresImport(destination: postgres, job: job, alsoWrite: csvWrite).run()
            return Result(summary: summary, csv: csvReport)
        }
        if let databasePath {
            var job = job
            job.databasePath = databasePath
            let summary = try job.run()
            let csvReport = try csv?.write(from: databasePath)
            let page = try report.map {
                try HealthReport.write(databasePath: databasePath, to: $0.path, options: $0.options)
            }
            let copy = try deidentify.map { output in
                var options = Deidentifier.Options()
                options.routes = DeidentificationRules.Routes(rawValue: output.routes) ?? .drop
                options.shiftDates = output.shiftDates
                options.person = output.person
                options.replaceOutput = true
                return try Deidentifier.run(
                    databasePath: databasePath, outputPath: output.path, keyPath: output.keyFile, options: options)
            }
            return Result(summary: summary, csv: csvReport, report: page, deidentified: copy)
        }
        if report != nil || deidentify != nil {
            throw ImportError(
                .usage, "a report or a de-identified copy is made from a SQLite database", hint: "add a sqlite sink")
        }
        guard let csv else {
            throw ImportError(.usage, "nothing to write", hint: "name a database (--db) or a CSV folder (--csv)")
        }
        return try csv.withScratchDatabase { scratch in
            var job = job
            job.databasePath = scratch
            let summary = try job.run()
            return Result(summary: summary, csv: try csv.write(from: scratch))
        }
    }
}
