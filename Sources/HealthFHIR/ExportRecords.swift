import HealthModel
import HealthSQLite

/// What both formats write, read from the database once: daily values from the rollups, readings from the
/// sample tables, nights from the daily sleep rollups, blood pressure from its correlations. FHIR and IEEE 1752.1
/// only format these. Each query streams its rows in a fixed order (so an unchanged database gives unchanged
/// files); nothing but one row and one night is held.
package enum ExportRecord {
    /// A day's total (`sum`) or mean (`avg`) from `daily_rollups`.
    case daily(FHIRMapping, date: String, value: Double, sources: String)
    /// One sample, as stored (canonical unit).
    case reading(FHIRMapping, identity: Int64, source: String, start: String, end: String, value: Double)
    /// A night (the day it ends, as the rollups file it), hours per stage statistic (`AsleepCore_hours`).
    case night(date: String, stages: [(statistic: String, hours: Double)], sources: String)
    /// A blood-pressure correlation with its two readings (mmHg).
    case bloodPressure(identity: Int64, source: String, start: String, end: String, systolic: Double, diastolic: Double)
}

/// `--level daily` or `--level samples`.
public enum ExportLevel: String, Sendable, Codable, CaseIterable {
    /// One value per day and metric from the rollups; weight, height, glucose… per reading; a night per night.
    case daily
    /// Every sample of the mapped quantity types, streamed; sleep per night and blood pressure per reading as
    /// in `daily`.
    case samples
}

package struct ExportRecordReader {
    let connection: SQLiteConnection
    let level: ExportLevel

    /// Rows not written because they lack what the format needs, by reason (for the report).
    package private(set) var skipped: [String: Int] = [:]

    package init(connection: SQLiteConnection, level: ExportLevel) {
        self.connection = connection
        self.level = level
    }

    /// Every record, type by type in the mapping's order, then nights, then blood pressure.
    package mutating func forEachRecord(_ body: (ExportRecord) throws -> Void) throws {
        for mapping in FHIRMapping.quantities {
            if level == .daily, mapping.daily != .readings {
                let statistic = mapping.daily == .sum ? "sum" : "avg"
                let rows = try connection.prepare(
                    "SELECT date, value, coalesce(sources, '') FROM daily_rollups WHERE type = ?1 AND statistic = ?2 "
                        + "AND value IS NOT NULL ORDER BY date")
                rows.bind(1, mapping.type); rows.bind(2, statistic)
                try rows.forEachRow { row in
                    try body(.daily(mapping, date: row.text(0) ?? "", value: row.double(1), sources: row.text(2) ?? ""))
                }
            } else {
                let table = mapping.daily == .sum ? "cumulative_samples" : "discrete_samples"
                // Flags 64 (no numeric value) and 256 (a unit of the wrong dimension): nothing to write.
                let rows = try connection.prepare(
                    "SELECT identity, source_name, start_date, coalesce(end_date, start_date), value, flags FROM \(table) "
                        + "WHERE type = ?1 AND start_date IS NOT NULL ORDER BY start_date, identity")
                rows.bind(1, mapping.type)
                var unusable = 0
                try rows.forEachRow { row in
                    guard !row.isNull(4), row.integer(5) & (64 | 256) == 0 else {
                        unusable += 1
                        return
                    }
                    try body(
                        .reading(
                            mapping, identity: row.integer(0), source: row.text(1) ?? "", start: row.text(2) ?? "",
                            end: row.text(3) ?? "", value: row.double(4)))
                }
                if unusable > 0 { skipped["\(mapping.type): no usable value", default: 0] += unusable }
            }
        }
        try forEachNight(body)
        try forEachBloodPressure(body)
    }

    /// The daily sleep rollups, a night per date with its stages.
    private func forEachNight(_ body: (ExportRecord) throws -> Void) throws {
        let rows = try connection.prepare(
            "SELECT date, statistic, value, coalesce(sources, '') FROM daily_rollups WHERE type = ?1 "
                + "AND value IS NOT NULL ORDER BY date, statistic")
        rows.bind(1, FHIRMapping.sleepType)
        var date: String?
        var stages: [(statistic: String, hours: Double)] = []
        var sources = Set<String>()
        func emit() throws {
            guard let current = date, !stages.isEmpty else { return }
            let names = sources.flatMap { $0.components(separatedBy: "; ") }.filter { !$0.isEmpty }
            try body(.night(date: current, stages: stages, sources: Set(names).sorted().joined(separator: "; ")))
        }
        try rows.forEachRow { row in
            let day = row.text(0) ?? ""
            if day != date {
                try emit()
                date = day
                stages = []
                sources = []
            }
            guard let statistic = row.text(1), FHIRMapping.sleepStages.contains(where: { $0.statistic == statistic })
            else { return }
            stages.append((statistic, row.double(2)))
            sources.insert(row.text(3) ?? "")
        }
        try emit()
    }

    /// Blood-pressure correlations with both readings; the others are counted.
    private mutating func forEachBloodPressure(_ body: (ExportRecord) throws -> Void) throws {
        let rows = try connection.prepare(
            """
            SELECT c.identity, c.source_name, c.start_date, coalesce(c.end_date, c.start_date),
                (SELECT d.value FROM correlation_samples AS s JOIN discrete_samples AS d ON d.id = s.sample_id
                 WHERE s.correlation_id = c.id AND s.sample_table = 'discrete_samples' AND d.type = ?1),
                (SELECT d.value FROM correlation_samples AS s JOIN discrete_samples AS d ON d.id = s.sample_id
                 WHERE s.correlation_id = c.id AND s.sample_table = 'discrete_samples' AND d.type = ?2)
            FROM correlations AS c
            WHERE c.type = 'HKCorrelationTypeIdentifierBloodPressure' AND c.start_date IS NOT NULL
            ORDER BY c.start_date, c.identity
            """)
        rows.bind(1, FHIRMapping.systolic.type); rows.bind(2, FHIRMapping.diastolic.type)
        var incomplete = 0
        try rows.forEachRow { row in
            guard !row.isNull(4), !row.isNull(5) else {
                incomplete += 1
                return
            }
            try body(
                .bloodPressure(
                    identity: row.integer(0), source: row.text(1) ?? "", start: row.text(2) ?? "",
                    end: row.text(3) ?? "", systolic: row.double(4), diastolic: row.double(5)))
        }
        if incomplete > 0 { skipped["blood pressure without both readings", default: 0] += incomplete }
    }

    /// Types the database holds that neither format writes, with their row counts (workouts and the other
    /// categories included), from `data_types`.
    package static func typesLeftOut(_ connection: SQLiteConnection) throws -> [String: Int] {
        let written = Set(
            FHIRMapping.quantities.map(\.type) + [
                FHIRMapping.sleepType, FHIRMapping.systolic.type, FHIRMapping.diastolic.type,
                "HKCorrelationTypeIdentifierBloodPressure",
            ])
        var leftOut: [String: Int] = [:]
        let types = try connection.query(
            "SELECT type, row_table FROM data_types WHERE kind IN ('cumulative', 'discrete', 'category') ORDER BY type")
        for row in types {
            guard let type = row[0].text, let table = row[1].text, !written.contains(type) else { continue }
            let count = try connection.scalar(
                "SELECT count(*) FROM \"\(table.replacingOccurrences(of: "\"", with: ""))\" WHERE type = ?1",
                [.text(type)])
            leftOut[type] = Int(count.integer ?? 0)
        }
        return leftOut
    }
}
