/// The rule of every stored table and column (`Schema.tables`), for one run's options. docs/privacy.md describes
/// them; `DeidentificationRulesTests` fails for a table or column without one.
package enum DeidentificationRules {
    /// Where a route's shape goes.
    package enum Routes: String, Sendable, CaseIterable {
        /// No coordinates: the routes' rows stay (dates, source), their points go.
        case drop
        /// The shape moved to 0,0 and turned by a keyed angle per route (weaker: a shape can be matched to a map).
        case relative
    }

    package static func tables(routes: Routes, shiftDates: Bool) -> [String: TableRule] {
        var rules: [String: TableRule] = [:]
        let sampleRows: [String: ColumnRule] = [
            "id": .keep, "type_id": .keep, "source_id": .keep, "start_date": .dateText, "end_seconds": .seconds,
            "creation_seconds": .seconds, "utc_offset_seconds": .keep, "local_date": .dateText, "value": .keep,
            "unit": .keep, "raw_value": .keep, "raw_unit": .keep, "flags": .keep, "xml_line": .keep,
            "identity": .keyedInteger(label: "identity"), "origin": .keep,
        ]
        for table in ["cumulative_rows", "discrete_rows", "category_rows"] { rules[table] = .copy(sampleRows) }
        rules["type_names"] = .copy(["id": .keep, "type": .keep])
        rules["parent_tables"] = .copy(["id": .keep, "name": .keep])
        // Each key's class is decided once (`MetadataPolicy.KeyClass`, in `temp.deid_metadata_keys`); only the
        // values of keys whose entries are kept when numeric are looked at one by one.
        let keyClass = "(SELECT class FROM temp.deid_metadata_keys WHERE id = r.key_id)"
        rules["metadata_keys"] = .copy(
            ["id": .keep, "key": .keep],
            filter:
                "r.id IN (SELECT id FROM temp.deid_metadata_keys WHERE class <> \(MetadataPolicy.KeyClass.drop.rawValue))",
            why: "only keys whose entries the copy can keep")
        rules["metadata_rows"] = .copy(
            [
                "parent_table_id": .keep, "parent_id": .keep, "key_id": .keep,
                "value": .special(
                    sql: "CASE \(keyClass) WHEN \(MetadataPolicy.KeyClass.pseudonymise.rawValue) THEN "
                        + "deid_metadata_pseudonym(r.key_id, r.value) ELSE r.value END",
                    why: "kept for Apple's non-identifying keys and numbers, pseudonymised for identifiers"),
                "number": .special(
                    sql:
                        "CASE \(keyClass) WHEN \(MetadataPolicy.KeyClass.pseudonymise.rawValue) THEN NULL ELSE r.number END",
                    why: "NULL for identifiers (a serial number can read as a number)"),
                "number_unit": .keep,
            ],
            filter: "CASE \(keyClass) WHEN \(MetadataPolicy.KeyClass.keep.rawValue) THEN 1 "
                + "WHEN \(MetadataPolicy.KeyClass.pseudonymise.rawValue) THEN 1 "
                + "WHEN \(MetadataPolicy.KeyClass.numbersOnly.rawValue) THEN deid_is_number(r.value) IS NOT NULL ELSE 0 END",
            why: "free text and third-party keys whose value is not a number are dropped")
        rules["hrv_beat_rows"] = .copy(
            ["sample_id": .keep, "seq": .keep, "bpm": .keep, "time_centis": .centiseconds, "raw_time": .keep])
        switch routes {
        case .drop:
            rules["route_point_rows"] = .empty(why: "--routes drop: no coordinates")
        case .relative:
            rules["route_point_rows"] = .copy(
                [
                    "route_id": .keep, "seq": .keep, "time_centis": .centiseconds,
                    "latitude": .special(
                        sql: "deid_route_latitude(r.route_id, r.latitude, r.longitude)",
                        why: "metres from the route's first point, turned by a keyed angle, as degrees at 0,0"),
                    "longitude": .special(
                        sql: "deid_route_longitude(r.route_id, r.latitude, r.longitude)",
                        why: "as latitude"),
                    "elevation": .keep, "speed": .keep,
                    "course": .special(
                        sql: "deid_route_course(r.route_id, r.course)", why: "turned with the shape"),
                    "horizontal_accuracy": .keep, "vertical_accuracy": .keep,
                ])
        }
        rules["sources"] = .copy([
            "id": .keep, "name": .sourceName, "version": .keep, "device_name": .deviceName,
            "device_manufacturer": .keep, "device_model": .keep, "device_hardware": .keep, "device_software": .keep,
            "device": .special(
                sql: "CASE WHEN r.device IS NOT NULL THEN 'name:' || ifnull(deid_device_name(r.device_name), '')"
                    + " || ifnull(', manufacturer:' || r.device_manufacturer, '') || ifnull(', model:' || r.device_model, '')"
                    + " || ifnull(', hardware:' || r.device_hardware, '') || ifnull(', software:' || r.device_software, '')"
                    + " END",
                why: "rebuilt from the kept fields: the description can carry local and UDI identifiers"),
        ])
        let sourceAndTimes: [String: ColumnRule] = [
            "source_id": .keep, "source_name": .sourceName, "start_date": .dateText, "end_date": .dateText,
            "creation_date": .dateText, "utc_offset": .keep, "local_date": .dateText,
        ]
        rules["correlations"] = .copy(
            sourceAndTimes.merging([
                "id": .keep, "type": .keep, "flags": .keep, "xml_line": .keep,
                "identity": .keyedInteger(label: "identity"),
            ]) { $1 })
        rules["correlation_samples"] = .copy(["correlation_id": .keep, "sample_table": .keep, "sample_id": .keep])
        rules["sync_identifiers"] = .copy([
            "source_name": .sourceName,
            "sync_identifier": .special(
                sql: "deid_pseudonym2('sync identifier', 'sync', r.source_name, r.sync_identifier)",
                why: "a keyed pseudonym of the app and its identifier"),
            "version": .keep, "row_table": .keep, "row_id": .keep,
        ])
        rules["workouts"] = .copy(
            sourceAndTimes.merging([
                "id": .keep, "activity_type": .keep, "duration": .keep, "duration_unit": .keep, "total_distance": .keep,
                "total_distance_unit": .keep, "total_energy_burned": .keep, "total_energy_burned_unit": .keep,
                "raw_total_distance": .keep, "raw_total_distance_unit": .keep, "raw_total_energy_burned": .keep,
                "raw_total_energy_burned_unit": .keep, "flags": .keep, "xml_line": .keep,
                "identity": .keyedInteger(label: "identity"), "local_start": .dateText, "origin": .keep,
            ]) { $1 })
        rules["workout_duplicates"] = .copy([
            "workout_id": .keep, "probable_duplicate_of": .keep, "overlap_fraction": .keep,
        ])
        rules["workout_events"] = .copy([
            "id": .keep, "workout_id": .keep, "activity_id": .keep, "type": .keep, "date": .dateText,
            "duration": .keep, "duration_unit": .keep,
        ])
        rules["workout_activities"] = .copy([
            "id": .keep, "workout_id": .keep, "uuid": .pseudonym(label: "workout activity uuid", prefix: "activity"),
            "start_date": .dateText, "end_date": .dateText, "duration": .keep, "duration_unit": .keep,
        ])
        rules["workout_statistics"] = .copy([
            "id": .keep, "workout_id": .keep, "activity_id": .keep, "type": .keep, "start_date": .dateText,
            "end_date": .dateText, "average": .keep, "minimum": .keep, "maximum": .keep, "sum": .keep, "unit": .keep,
            "raw_unit": .keep,
        ])
        rules["workout_routes"] = .copy([
            "id": .keep, "workout_id": .keep, "source_id": .keep, "source_name": .sourceName, "start_date": .dateText,
            "end_date": .dateText, "creation_date": .dateText, "file_path": .drop,
            "point_count": routes == .drop
                ? .special(sql: "0", why: "--routes drop: the points are gone") : .keep,
            "problem": .drop,
        ])
        rules["data_types"] = .copy([
            "type": .keep, "display_name": .keep, "kind": .keep, "unit": .keep, "row_table": .keep,
        ])
        rules["activity_summaries"] = .copy([
            "id": .keep, "date": .dateText, "active_energy_burned": .keep, "active_energy_burned_goal": .keep,
            "active_energy_burned_unit": .keep, "apple_move_time": .keep, "apple_move_time_goal": .keep,
            "apple_exercise_time": .keep, "apple_exercise_time_goal": .keep, "apple_stand_hours": .keep,
            "apple_stand_hours_goal": .keep, "other_json": .keep, "raw_active_energy_burned_unit": .keep,
        ])
        rules["ecg_recordings"] = .copy([
            "id": .keep,
            "file_name": .special(sql: "'ecg-' || r.id || '.csv'", why: "the exported name carries the date"),
            "recorded_date": .dateText, "utc_offset": .keep, "local_date": .dateText, "classification": .keep,
            "symptoms": .keep, "software_version": .keep, "device": .keep, "sample_rate_hz": .keep, "lead": .keep,
            "unit": .keep, "sample_count": .keep, "samples": .keep, "header_json": .drop,
        ])
        rules["clinical_records"] = .empty(
            why: "FHIR resources carry the patient's name, birth date, address, record numbers and practitioners")
        rules["audiograms"] = .copy(
            sourceAndTimes.merging(["id": .keep, "type": .keep, "xml_line": .keep]) { $1 })
        rules["audiogram_points"] = .copy([
            "audiogram_id": .keep, "frequency": .keep, "frequency_unit": .keep, "left_ear_value": .keep,
            "left_ear_unit": .keep, "right_ear_value": .keep, "right_ear_unit": .keep, "attributes_json": .keep,
        ])
        rules["vision_prescriptions"] = .copy([
            "id": .keep, "type": .keep, "date_issued": .dateText, "expiration_date": .dateText, "brand": .keep,
            "attributes_json": .drop, "right_eye_json": .keep, "left_eye_json": .keep, "attachments_json": .drop,
        ])
        rules["state_of_mind"] = .copy([
            "id": .keep, "identifier": .pseudonym(label: "state of mind id", prefix: "mood"),
            "source_name": .sourceName,
            "kind": .keep, "start_date": .dateText, "end_date": .dateText, "utc_offset": .keep, "local_date": .dateText,
            "valence": .keep, "valence_shifted": .keep, "valence_percent": .keep, "classification": .keep,
            "labels_json": .keep, "associations_json": .keep, "metadata_json": .drop,
        ])
        rules["me"] = .copy([
            "key": .keep,
            "value": .special(
                sql: "deid_characteristic(r.key, r.value)",
                why: "the date of birth as its year (ages over 89 as one group); the rest kept"),
        ])
        rules["documents"] = .empty(why: "export_cda.xml carries the patient's name, birth date and address")
        rules["import_runs"] = .copy([
            "id": .keep, "input_path": .drop, "input_size": .keep, "input_kind": .keep, "main_entry": .drop,
            "export_date": .dateText, "export_utc_offset": .keep, "locale": .keep, "time_zone": .keep,
            "started_at": .dateText, "finished_at": .dateText, "outcome": .keep, "tool_version": .keep,
            "summary_json": .drop, "input_fingerprint": .pseudonym(label: "input fingerprint", prefix: "input"),
            "error": .scrubbedText, "added": .keep, "replaced": .keep, "deleted": .keep, "unchanged": .keep,
        ])
        rules["import_warnings"] = .copy(["run_id": .keep, "message": .scrubbedText, "count": .keep])
        rules["anchors"] = .copy([
            "type": .keep, "row_table": .keep, "row_count": .keep, "newest_end_date": .dateText,
            "newest_creation_date": .dateText, "fingerprint": .pseudonym(label: "anchor fingerprint", prefix: "anchor"),
            "export_date": .dateText, "run_id": .keep,
        ])
        rules["deleted_samples"] = .copy([
            "id": .keep, "run_id": .keep, "reason": .keep, "row_table": .keep, "row_id": .keep, "type": .keep,
            "source_name": .sourceName, "start_date": .dateText, "end_date": .dateText, "local_date": .dateText,
            "identity": .keyedInteger(label: "identity"), "row_json": .drop, "metadata_json": .drop,
        ])
        rules["import_run_changes"] = .copy([
            "run_id": .keep, "type": .keep, "row_table": .keep, "added": .keep, "replaced": .keep, "deleted": .keep,
            "unchanged": .keep,
        ])
        rules["rollups"] = .copy(
            [
                "period": .keep, "label": .dateText, "period_start": .dateText, "type": .keep, "statistic": .keep,
                "column_name": .keep, "value": .keep, "unit": .keep, "sources": .sourceNameList,
            ], filter: shiftDates ? "r.period <> 'month'" : nil,
            why: shiftDates
                ? "months do not survive a shift by whole weeks: their rows are left out (days and weeks shift exactly)"
                : nil)
        rules["baseline_metrics"] = .copy(["id": .keep, "type": .keep, "column_name": .keep])
        rules["baseline_rows"] = .copy(
            [
                "metric_id": .keep, "date": .dateText, "value": .keep, "n": .keep, "mean": .keep,
                "sd": .keep, "median": .keep, "mad": .keep, "z": .keep, "n_365": .keep, "percentile_365": .keep,
                "n_90": .keep, "slope_30d": .keep, "slope_low": .keep, "slope_high": .keep,
            ], why: "numbers computed from the daily rollups; every window is relative, so a shifted day keeps them")
        rules["settings"] = .copy(
            [
                "key": .keep,
                "value": .special(
                    sql: "deid_setting(r.key, r.value)",
                    why: "the time zone, units and ids kept; the rollup options' source names stripped"),
            ], filter: "deid_setting(r.key, r.value) IS NOT NULL",
            why: "settings this version does not know are left out")
        return rules
    }
}
