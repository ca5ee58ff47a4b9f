import Foundation
import HealthModel
import HealthSQLite

/// Reads a report's model from a healthetl database, from the rollups (with their source priority) and the
/// tables the rollups do not cover (Activity summaries, workouts, routes). It never recomputes a statistic
/// the rollups hold, so the page and the database cannot disagree.
struct ReportReader {
    let connection: SQLiteConnection
    let options: ReportOptions
    let databaseName: String
    /// The bucket range in `rollups.label` spelling for the chosen resolution, inclusive.
    private(set) var axis = ReportAxis(resolution: .day, labels: [])

    init(connection: SQLiteConnection, options: ReportOptions, databaseName: String) {
        self.connection = connection
        self.options = options
        self.databaseName = databaseName
    }

    mutating func read(now: Date = Date()) throws -> ReportModel {
        let zone = try connection.scalar("SELECT value FROM settings WHERE key = 'time_zone'").text ?? "UTC"
        var header = ReportHeader(
            databaseName: databaseName, timeZone: zone,
            generatedAt: TimestampFormatting.utcString(Int64(now.timeIntervalSince1970)))
        header.requestedFrom = options.from
        header.requestedTo = options.to
        header.lastImport = try lastImport()
        guard let (first, last) = try dataRange() else {
            return ReportModel(header: header, axis: axis)
        }
        header.firstDay = first
        header.lastDay = last
        header.sources = try sources(first: first, last: last)
        let span = (Timestamp.dayNumber(ofDate: last) ?? 0) - (Timestamp.dayNumber(ofDate: first) ?? 0) + 1
        let resolution = try availableResolution(ReportCalendar.resolution(days: span))
        axis = ReportAxis(resolution: resolution, labels: ReportCalendar.labels(first: first, last: last, resolution))
        var model = ReportModel(header: header, axis: axis)
        for section in options.sections {
            let content: ReportSectionContent
            switch section {
            case .activity: content = try activity(first: first, last: last)
            case .sleep: content = try sleep()
            case .heart: content = try heart()
            case .body: content = try body()
            case .workouts: content = try workouts(first: first, last: last)
            case .changes: content = try changes(last: last)
            }
            if !content.isEmpty { model.sections.append(content) }
        }
        if resolution == .day { try addNormals(to: &model, first: first, last: last) }
        return model
    }

    /// The first and last day with daily rollups within the options' range.
    private func dataRange() throws -> (String, String)? {
        let sql = "SELECT min(label), max(label) FROM rollups WHERE period = 'day' AND label >= ?1 AND label < ?2"
        var from = options.from ?? "0000-00-00"
        let to = options.to ?? "9999-99-99"
        if let lastDays = options.lastDays {
            guard let last = try connection.query(sql, [.text(from), .text(to)]).first?[1].text,
                let lastNumber = Timestamp.dayNumber(ofDate: last)
            else { return nil }
            from = max(from, ReportCalendar.dayText(lastNumber - lastDays + 1))
        }
        let days = try connection.query(sql, [.text(from), .text(to)])
        guard let first = days.first?[0].text, let last = days.first?[1].text else { return nil }
        return (first, last)
    }

    /// The wanted resolution if the database has those rollups (a pipeline may keep only days), else days.
    private func availableResolution(_ wanted: ReportResolution) throws -> ReportResolution {
        guard wanted != .day else { return .day }
        let present = try connection.scalar(
            "SELECT 1 FROM rollups WHERE period = ?1 LIMIT 1", [.text(wanted.rawValue)])
        return present == .null ? .day : wanted
    }

    /// One rollup statistic of one type over the axis: the rows as stored. nil when there are none.
    func rollupSeries(type: String, statistic: String, name: String) throws -> (series: ReportSeries, unit: String)? {
        guard let first = axis.labels.first, let last = axis.labels.last else { return nil }
        let rows = try connection.query(
            """
            SELECT label, value, unit, column_name FROM rollups
            WHERE type = ?1 AND period = ?2 AND statistic = ?3 AND label >= ?4 AND label <= ?5 AND value IS NOT NULL
            ORDER BY label
            """, [.text(type), .text(axis.resolution.rawValue), .text(statistic), .text(first), .text(last)])
        guard let firstRow = rows.first else { return nil }
        let points = rows.compactMap { row in
            row[0].text.flatMap { label in row[1].number.map { ReportPoint(label, $0) } }
        }
        let key = firstRow[3].text ?? "\(type)_\(statistic)"
        return (ReportSeries(key: key, name: name, points: points), firstRow[2].text ?? "")
    }

    private func lastImport() throws -> ReportImport? {
        let runs = try connection.query(
            """
            SELECT id, finished_at, export_date, outcome FROM import_runs WHERE outcome IN ('ok', 'unchanged')
            ORDER BY id DESC LIMIT 1
            """)
        guard let run = runs.first, let id = run[0].integer else { return nil }
        var result = ReportImport(finishedAt: run[1].text, exportDate: run[2].text, outcome: run[3].text ?? "")
        // An unchanged run read nothing; the warnings are those of the run that last read the export.
        let reading =
            try connection.scalar(
                "SELECT max(id) FROM import_runs WHERE outcome = 'ok' AND id <= ?1", [.integer(id)]
            ).integer ?? id
        result.warnings = try connection.query(
            "SELECT message, count FROM import_warnings WHERE run_id = ?1 ORDER BY count DESC, message",
            [.integer(reading)]
        ).map { ReportImport.Warning(message: $0[0].text ?? "", count: Int($0[1].integer ?? 0)) }
        return result
    }

    /// The sources named by the day rollups of the range, with the days they contributed on; a source's
    /// kind comes from its device records (a name with a Watch device is a Watch). A day has a few distinct
    /// source lists among its dozens of rows, so only those are split.
    private func sources(first: String, last: String) throws -> [ReportSource] {
        var days: [String: (lastLabel: String, count: Int)] = [:]
        let statement = try connection.prepare(
            """
            SELECT DISTINCT label, sources FROM rollups WHERE period = 'day' AND label >= ?1 AND label <= ?2
            AND sources IS NOT NULL ORDER BY label
            """)
        statement.bind(1, first)
        statement.bind(2, last)
        try statement.forEachRow { row in
            guard let label = row.text(0), let names = row.text(1) else { return }
            for name in names.components(separatedBy: "; ") where !name.isEmpty {
                let seen = days[name]
                if seen?.lastLabel != label { days[name] = (label, (seen?.count ?? 0) + 1) }
            }
        }
        var kinds: [String: ReportSource.Kind] = [:]
        for row in try connection.query("SELECT name, device_model FROM sources") {
            guard let name = row[0].text else { continue }
            let model = row[1].text ?? ""
            let kind: ReportSource.Kind =
                model.contains("Watch") ? .watch : model.contains("iPhone") ? .iPhone : .app
            // A name seen with several devices gets the most specific one.
            if kinds[name] == nil || kinds[name] == .app || (kinds[name] == .iPhone && kind == .watch) {
                kinds[name] = kind
            }
        }
        return days.map { ReportSource(name: $0.key, kind: kinds[$0.key] ?? .app, days: $0.value.count) }
            .sorted { ($0.days, $1.name) > ($1.days, $0.name) }
    }
}

extension SQLiteValue {
    /// A REAL or INTEGER column as a number.
    package var number: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}
