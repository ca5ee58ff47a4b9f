import Foundation
import HealthSchema
import HealthStore
import HealthTestSupport
import Testing

@testable import HealthDeidentify

/// Fail-closed: every column of every stored table has exactly one rule, so a table or column added to the
/// schema later (a `baselines` table, say) fails here until someone decides what it may reveal.
@Suite struct DeidentificationRulesTests {
    static let modes: [(DeidentificationRules.Routes, Bool)] = [
        (.drop, false), (.drop, true), (.relative, false), (.relative, true),
    ]

    @Test func everyStoredTableAndColumnHasExactlyOneRule() {
        for (routes, shift) in Self.modes {
            let rules = DeidentificationRules.tables(routes: routes, shiftDates: shift)
            let tables = Set(Schema.tables.map(\.name))
            #expect(Set(rules.keys).subtracting(tables) == [], "rules for tables the schema does not have")
            for table in Schema.tables {
                guard let rule = rules[table.name] else {
                    Issue.record("no rule for the stored table \(table.name)")
                    continue
                }
                guard case .copy(let columns, _, _) = rule else { continue }
                let names = table.columns.map(\.name)
                #expect(Set(names).count == names.count)
                #expect(
                    Set(columns.keys) == Set(names),
                    """
                    \(table.name): without a rule \(Set(names).subtracting(columns.keys).sorted()), \
                    rules for no column \(Set(columns.keys).subtracting(names).sorted())
                    """)
            }
        }
    }

    /// The copy itself refuses a column without a rule: nothing is written for a schema the rules do not cover.
    @Test func aColumnWithoutARuleStopsTheCopy() throws {
        var table = Schema.tables.first { $0.name == "workouts" }!
        table.columns.append(column("coach_notes", "TEXT", "Free text that no rule covers."))
        let rule = DeidentificationRules.tables(routes: .drop, shiftDates: false)["workouts"]!
        #expect(throws: (any Error).self) { try TableCopySQL(shiftDays: 0).copy(table, rule) }
        let unchanged = Schema.tables.first { $0.name == "workouts" }!
        #expect(try TableCopySQL(shiftDays: 0).copy(unchanged, rule) != nil)
    }

    /// Every stored table is named in docs/privacy.md, whose table of rules people read.
    @Test func docsPrivacyNamesEveryStoredTable() throws {
        let text = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/privacy.md", encoding: .utf8)
        for table in Schema.tables {
            #expect(text.contains("`\(table.name)`"), "docs/privacy.md does not name \(table.name)")
        }
    }

    /// Text columns that no rule touches hold what the schema fixes (types, units, enumerations): a new text
    /// column kept as it is must be added here on purpose.
    @Test func textColumnsKeptAsTheyAreAreKnown() {
        let known: Set<String> = [
            "type_names.type", "parent_tables.name", "metadata_keys.key", "cumulative_rows.start_date",
            "cumulative_rows.local_date", "cumulative_rows.unit", "cumulative_rows.raw_unit",
            "discrete_rows.unit", "discrete_rows.raw_unit", "category_rows.value", "category_rows.unit",
            "category_rows.raw_value", "category_rows.raw_unit", "metadata_rows.number_unit", "hrv_beat_rows.raw_time",
            "sources.version", "sources.device_manufacturer", "sources.device_model", "sources.device_hardware",
            "sources.device_software", "correlations.type", "correlations.utc_offset",
            "correlation_samples.sample_table",
            "sync_identifiers.row_table", "workouts.activity_type", "workouts.utc_offset", "workouts.duration_unit",
            "workouts.total_distance_unit", "workouts.total_energy_burned_unit", "workouts.raw_total_distance_unit",
            "workouts.raw_total_energy_burned_unit", "workout_events.type", "workout_events.duration_unit",
            "workout_activities.duration_unit", "workout_statistics.type", "workout_statistics.unit",
            "workout_statistics.raw_unit", "data_types.type", "data_types.display_name", "data_types.kind",
            "data_types.unit", "data_types.row_table", "activity_summaries.active_energy_burned_unit",
            "activity_summaries.other_json", "activity_summaries.raw_active_energy_burned_unit",
            "ecg_recordings.utc_offset", "ecg_recordings.classification", "ecg_recordings.symptoms",
            "ecg_recordings.software_version", "ecg_recordings.device", "ecg_recordings.lead", "ecg_recordings.unit",
            "audiograms.type", "audiograms.utc_offset", "audiogram_points.frequency_unit",
            "audiogram_points.left_ear_unit", "audiogram_points.right_ear_unit", "audiogram_points.attributes_json",
            "vision_prescriptions.type", "vision_prescriptions.brand", "vision_prescriptions.right_eye_json",
            "vision_prescriptions.left_eye_json", "state_of_mind.kind", "state_of_mind.utc_offset",
            "state_of_mind.classification", "state_of_mind.labels_json", "state_of_mind.associations_json", "me.key",
            "import_runs.input_kind", "import_runs.export_utc_offset", "import_runs.locale", "import_runs.time_zone",
            "import_runs.outcome", "import_runs.tool_version", "anchors.type", "anchors.row_table",
            "deleted_samples.reason", "deleted_samples.row_table", "deleted_samples.type", "import_run_changes.type",
            "import_run_changes.row_table", "rollups.period", "rollups.type", "rollups.statistic",
            "rollups.column_name", "rollups.unit", "baseline_metrics.type", "baseline_metrics.column_name",
            "settings.key",
            "discrete_rows.start_date",
            "discrete_rows.local_date", "category_rows.start_date", "category_rows.local_date",
        ]
        let rules = DeidentificationRules.tables(routes: .drop, shiftDates: true)
        var unknown: [String] = []
        for table in Schema.tables {
            for column in table.columns where column.declaration.hasPrefix("TEXT") {
                guard rules[table.name]?.columnRules[column.name] == .keep else { continue }
                let name = "\(table.name).\(column.name)"
                if !known.contains(name) { unknown.append(name) }
            }
        }
        #expect(unknown == [], "text kept as it is, not reviewed: \(unknown)")
    }
}
