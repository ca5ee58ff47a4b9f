import Foundation
import HealthModel
import HealthSchema

/// A folder of CSV files made from a healthetl database: every table, and the daily rollups. What
/// `healthetl export --csv`, `healthetl import --csv` and a pipeline's CSV sink write.
public struct CSVOutput: Sendable, Equatable {
    public var directory: String
    public var dialect: CSVDialect = .standard
    /// One file per table of the schema.
    public var tables = true
    /// daily.csv, daily_long.csv, daily_units.csv.
    public var daily = true

    public init(directory: String) { self.directory = directory }

    /// Writes the files; returns what was written.
    public func write(from databasePath: String) throws -> CSVExportReport {
        var report: CSVExportReport
        if tables {
            report = try CSVTableExporter.exportTables(databasePath: databasePath, to: directory, dialect: dialect)
        } else {
            report = CSVExportReport(dialect: dialect, directory: directory, files: [], seconds: 0)
        }
        if daily {
            let clock = ContinuousClock()
            let started = clock.now
            report.files += try DailyCSV.write(databasePath: databasePath, to: directory, dialect: dialect)
            report.seconds += ImportSummary.seconds(clock.now - started)
        }
        return report
    }

    /// For a run that writes CSV only: `body` gets the path of a scratch database in the output folder to
    /// import into and write the files from (dedup and the rollups need the database's indexes on disk; memory
    /// stays flat). The scratch database is deleted afterwards, whatever happens.
    package func withScratchDatabase<T>(_ body: (_ path: String) throws -> T) throws -> T {
        try CSVTableExporter.prepareDirectory(directory)
        Self.removeStaleScratchDatabases(in: directory)
        // Per process: two runs writing into one folder never share (or delete) each other's scratch file.
        let path = directory + "/\(Self.scratchPrefix)\(getpid()).sqlite"
        let leftovers = ["", "-journal", "-wal", "-shm", ".lock"].map { path + $0 }
        // Ours too: in a container every run may have the same pid, and a killed run's file is not ours.
        for leftover in leftovers { unlink(leftover) }
        defer { for leftover in leftovers { unlink(leftover) } }
        return try body(path)
    }

    static let scratchPrefix = ".healthetl-scratch-"

    /// Scratch databases of runs that were killed (their process is gone).
    static func removeStaleScratchDatabases(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(scratchPrefix) {
            let rest = name.dropFirst(scratchPrefix.count)
            guard let pid = Int32(rest.prefix { $0.isNumber }), ProcessLiveness.processIsGone(pid) else { continue }
            unlink(directory + "/" + name)
        }
    }
}
