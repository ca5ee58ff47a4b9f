import HealthModel
import HealthSQLite
import HealthSchema

/// The person's normal in the report (docs/baselines.md): a band under each daily chart, marks on unusual days,
/// and "What changed": the largest sustained changes of the last 90 days.
extension ReportReader {
    /// Changes shown at most.
    static let changeCount = 8

    /// Each daily chart's band (mean ± sd of the 28 days before each day, for its first series' column) and the
    /// unusual days of the range as marks.
    func addNormals(to model: inout ReportModel, first: String, last: String) throws {
        let unusual = try UnusualDays.find(
            connection, from: first, to: last, minimumSignals: UnusualDays.defaultMinimum
        ).map(\.date).sorted()
        let rows = try connection.prepare(
            """
            SELECT date, mean - sd, mean + sd FROM baselines
            WHERE column_name = ?1 AND date >= ?2 AND date <= ?3 AND mean IS NOT NULL AND sd IS NOT NULL ORDER BY date
            """)
        for section in model.sections.indices {
            for chart in model.sections[section].charts.indices {
                var drawn = model.sections[section].charts[chart]
                guard drawn.style != .stacked, let key = drawn.series.first?.key else { continue }
                rows.bind(1, key)
                rows.bind(2, first)
                rows.bind(3, last)
                try rows.forEachRow { row in
                    guard let label = row.text(0) else { return }
                    drawn.band.append(ReportBand(label: label, low: row.double(1), high: row.double(2)))
                }
                if !drawn.band.isEmpty {
                    drawn.marks = unusual
                    drawn.note += " Grey band: the normal, mean ± standard deviation of the 28 days before each day."
                    if !unusual.isEmpty { drawn.note += " Red marks: unusual days (several vital signs off together)." }
                }
                model.sections[section].charts[chart] = drawn
            }
        }
    }

    /// The metrics whose 90-day trend up to the last day has a 95 % interval that excludes 0, largest change
    /// relative to the metric's median first. Counts, minima and maxima are left out (their averages and sums
    /// say it once).
    func changes(last: String) throws -> ReportSectionContent {
        var content = ReportSectionContent(section: .changes)
        // A metric counts when it has a value in the last week of the range.
        let since = Timestamp.dayNumber(ofDate: last).map { ReportCalendar.dayText($0 - 6) } ?? last
        let rows = try connection.query(
            """
            SELECT b.column_name, coalesce(t.display_name, b.type), b.slope_30d, b.slope_low, b.slope_high, b.median,
                   b.n_90, b.date, r.unit, r.statistic
            FROM baselines b
            JOIN rollups r ON r.period = 'day' AND r.label = b.date AND r.column_name = b.column_name
            LEFT JOIN (SELECT type, max(display_name) AS display_name FROM data_types GROUP BY type) t ON t.type = b.type
            WHERE b.date = (SELECT max(date) FROM baselines l WHERE l.column_name = b.column_name AND l.date <= ?1)
              AND b.date >= ?2 AND (b.slope_low > 0 OR b.slope_high < 0) AND b.median <> 0
              AND r.statistic NOT IN ('count', 'min', 'max')
            """, [.text(last), .text(since)])
        struct Change {
            var row: [SQLiteValue]
            var relative: Double
        }
        let ranked = rows.compactMap { row -> Change? in
            guard let slope = row[2].number, let median = row[5].number else { return nil }
            return Change(row: row, relative: abs(3 * slope / median))
        }.sorted { $0.relative > $1.relative }.prefix(Self.changeCount)
        guard !ranked.isEmpty else { return content }
        content.tables.append(
            ReportTable(
                id: "changes",
                caption: "The largest sustained changes of the 90 days up to \(last): trends whose 95 % interval "
                    + "excludes 0, largest relative to the metric's usual value first (docs/baselines.md)",
                header: [
                    "Metric", "Statistic", "Change per 30 days", "95 % interval", "Over 90 days", "Usual (median)",
                    "Days",
                ],
                rows: ranked.map { change in
                    let row = change.row
                    let unit = row[8].text.map { " " + $0 } ?? ""
                    func number(_ value: SQLiteValue) -> String { value.number.map(ReportFormat.number) ?? "—" }
                    let slope = row[2].number ?? 0
                    return [
                        row[1].text ?? "", row[9].text ?? "", signed(slope) + unit,
                        signed(row[3].number ?? 0) + " to " + signed(row[4].number ?? 0),
                        (slope > 0 ? "+" : "−") + ReportFormat.number(change.relative * 100) + " %",
                        number(row[5]) + unit, String(row[6].integer ?? 0),
                    ]
                }))
        return content
    }

    private func signed(_ value: Double) -> String { (value >= 0 ? "+" : "−") + ReportFormat.number(abs(value)) }
}
