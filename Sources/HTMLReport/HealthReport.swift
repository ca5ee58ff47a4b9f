import Foundation
import Glibc
import HealthModel
import HealthSchema

/// `healthetl report`: one HTML file from a healthetl database (docs/report.md).
public enum HealthReport {
    public struct Result: Sendable {
        public var path: String
        public var bytes: Int
        public var sections: [ReportSection]
        public var firstDay: String?
        public var lastDay: String?
        public var resolution: ReportResolution
    }

    /// The tables the report reads; a database without one of them is not one it can draw.
    package static let tables = [
        "rollups", "settings", "activity_summaries", "workouts", "workout_statistics",
        "workout_duplicates", "workout_routes", "route_points", "sources", "import_runs", "import_warnings",
    ]

    /// Reads the database (one read transaction: a consistent picture even while an import commits) and
    /// writes the page to `path`, owner-only, under a temporary name renamed when complete.
    public static func write(
        databasePath: String, to path: String, options: ReportOptions = ReportOptions(),
        now: Date = Date()
    ) throws -> Result {
        do {
            try options.validate()
        } catch {
            throw ImportError(.usage, error.message)
        }
        let model = try read(databasePath: databasePath, options: options, now: now)
        let html = ReportRenderer.html(model)
        try writeFile(html, to: path)
        return Result(
            path: path, bytes: html.utf8.count, sections: model.sections.map(\.section),
            firstDay: model.header.firstDay,
            lastDay: model.header.lastDay, resolution: model.axis.resolution)
    }

    package static func read(databasePath: String, options: ReportOptions, now: Date) throws -> ReportModel {
        let connection = try StoredDatabase.openForReading(databasePath, requiring: tables)
        return try StoredDatabase.read(databasePath) {
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            let zone = try connection.scalar("SELECT value FROM settings WHERE key = 'time_zone'").text
            if let wanted = options.timeZone, let zone, wanted.identifier != zone {
                throw ImportError(
                    .usage, "the database's days are in \(zone), not \(wanted.identifier)", file: databasePath,
                    hint:
                        "leave out --timezone, or run: healthetl set-timezone \(wanted.identifier) --db \(databasePath)"
                )
            }
            var reader = ReportReader(
                connection: connection, options: options, databaseName: (databasePath as NSString).lastPathComponent)
            return try reader.read(now: now)
        }
    }

    /// Writes `text` to `path` as a complete file or not at all (mode 0600: health data).
    static func writeFile(_ text: String, to path: String) throws {
        try AtomicFile.write(Array(text.utf8), to: path)
    }
}
