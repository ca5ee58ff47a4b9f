import HealthRollups
import HealthSQLite

/// The days on which several signals a watch sees an illness in are far from the person's normal together
/// (docs/baselines.md, "Unusual days"): what `healthetl mcp`'s `unusual` answers and the report marks.
package enum UnusualDays {
    /// How far from normal a signal must be: robust z, (value − median) / (MAD × 1.4826) of the 28 days before.
    package static let threshold = 2.5
    package static let defaultMinimum = 3

    package struct Signal: Sendable {
        package var name: String
        /// The `daily_rollups` column; sleep is the sum of the `SleepAnalysis_Asleep…_hours` columns.
        package var column: String
        /// +1: far above counts, −1: far below, 0: either.
        package var direction: Int
    }

    package static let signals = [
        Signal(name: "resting heart rate", column: "RestingHeartRate_avg", direction: 1),
        Signal(name: "heart rate variability", column: "HeartRateVariabilitySDNN_avg", direction: -1),
        Signal(name: "respiratory rate", column: "RespiratoryRate_avg", direction: 1),
        Signal(name: "wrist temperature", column: "AppleSleepingWristTemperature_avg", direction: 1),
        Signal(name: "time asleep", column: "SleepAnalysis_Asleep*_hours", direction: 0),
    ]

    package struct Finding: Sendable {
        package var signal: Signal
        package var value: Double
        package var median: Double
        package var mad: Double
        package var robustZ: Double { (value - median) / mad }

        var isFar: Bool {
            switch signal.direction {
            case 1: robustZ >= threshold
            case -1: robustZ <= -threshold
            default: abs(robustZ) >= threshold
            }
        }
    }

    package struct Day: Sendable {
        package var date: String
        package var findings: [Finding]
    }

    /// The unusual days from `first` to `last` (local dates, inclusive), newest first.
    package static func find(_ db: SQLiteConnection, from first: String, to last: String, minimumSignals: Int)
        throws -> [Day]
    {
        var findings: [String: [Finding]] = [:]
        let rows = try db.prepare(
            """
            SELECT date, value, median, mad FROM baselines
            WHERE column_name = ?1 AND date >= ?2 AND date <= ?3 AND mad > 0
            """)
        for signal in signals.dropLast() {
            rows.bind(1, signal.column)
            rows.bind(2, first)
            rows.bind(3, last)
            try rows.forEachRow { row in
                let finding = Finding(signal: signal, value: row.double(1), median: row.double(2), mad: row.double(3))
                if finding.isFar, let date = row.text(0) { findings[date, default: []].append(finding) }
            }
        }
        // swift-format-ignore: NeverForceUnwrap
        for (date, finding) in try sleepFindings(db, from: first, to: last, signal: signals.last!) where finding.isFar {
            findings[date, default: []].append(finding)
        }
        return findings.filter { $0.value.count >= minimumSignals }.sorted { $0.key > $1.key }
            .map { Day(date: $0.key, findings: $0.value) }
    }

    /// Time asleep per day (every `Asleep…_hours` statistic of sleep together) against its own 28 days before,
    /// by the rule of the stored baselines' median and MAD.
    static func sleepFindings(_ db: SQLiteConnection, from first: String, to last: String, signal: Signal) throws
        -> [(String, Finding)]
    {
        let firstDay = CivilDay.number(first) ?? Int.min / 2
        let window = firstDay == Int.min / 2 ? "" : CivilDay.text(firstDay - Baseline.normalDays)
        // Instants that hold the days' starts whatever the zone: the type's rows of those days, by its index.
        let lower = window.isEmpty ? "" : CivilDay.text(firstDay - Baseline.normalDays - 2) + "T00:00:00Z"
        // Past year 9999 the text would sort before every date: no upper bound then.
        let upper = last < "9999-12-30" ? CivilDay.number(last).map { CivilDay.text($0 + 2) + "T00:00:00Z" } : nil
        let statement = try db.prepare(
            """
            SELECT label, sum(value) FROM rollups
            WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis' AND period_start >= ?1 AND period_start < ?2
            AND +period = 'day' AND statistic LIKE 'Asleep%' AND +label >= ?3 AND +label <= ?4 AND value IS NOT NULL
            GROUP BY label ORDER BY label
            """)
        var nights: [(day: Int, date: String, hours: Double)] = []
        statement.bind(1, lower)
        statement.bind(2, upper ?? "a")
        statement.bind(3, window)
        statement.bind(4, last)
        try statement.forEachRow { row in
            guard let date = row.text(0), let day = CivilDay.number(date) else { return }
            nights.append((day, date, row.double(1)))
        }
        var findings: [(String, Finding)] = []
        var start = 0
        for (index, night) in nights.enumerated() where night.date >= first {
            while nights[start].day < night.day - Baseline.normalDays { start += 1 }
            let before = nights[start..<index].map(\.hours).sorted()
            guard before.count >= Baseline.minimumDays else { continue }
            let median = middle(before)
            let mad = Baseline.madScale * middle(before.map { abs($0 - median) }.sorted())
            guard mad > 0 else { continue }
            findings.append((night.date, Finding(signal: signal, value: night.hours, median: median, mad: mad)))
        }
        return findings
    }

    static func middle(_ sorted: [Double]) -> Double {
        let half = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
    }
}
