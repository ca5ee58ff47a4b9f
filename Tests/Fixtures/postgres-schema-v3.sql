-- The PostgreSQL schema of healthetl's schema version 3, as `healthetl schema --postgres` printed it (commit
-- eb97a2e): frozen for making version 3 servers in tests of the upgrade to version 4.

CREATE SCHEMA IF NOT EXISTS healthetl;

CREATE TABLE healthetl."cumulative_samples" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "source_id" BIGINT NOT NULL,
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "value" DOUBLE PRECISION,
    "unit" TEXT,
    "raw_value" DOUBLE PRECISION,
    "raw_unit" TEXT,
    "flags" BIGINT NOT NULL DEFAULT 0,
    "xml_line" BIGINT,
    "identity" BIGINT NOT NULL,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."discrete_samples" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "source_id" BIGINT NOT NULL,
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "value" DOUBLE PRECISION,
    "unit" TEXT,
    "raw_value" DOUBLE PRECISION,
    "raw_unit" TEXT,
    "flags" BIGINT NOT NULL DEFAULT 0,
    "xml_line" BIGINT,
    "identity" BIGINT NOT NULL,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."category_samples" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "source_id" BIGINT NOT NULL,
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "value" TEXT,
    "unit" TEXT,
    "raw_value" TEXT,
    "raw_unit" TEXT,
    "flags" BIGINT NOT NULL DEFAULT 0,
    "xml_line" BIGINT,
    "identity" BIGINT NOT NULL,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."metadata" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "parent_table" TEXT NOT NULL,
    "parent_id" BIGINT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT,
    "number" DOUBLE PRECISION,
    "number_unit" TEXT,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."sources" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT,
    "device_name" TEXT,
    "device_manufacturer" TEXT,
    "device_model" TEXT,
    "device_hardware" TEXT,
    "device_software" TEXT,
    "device" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."correlations" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "source_id" BIGINT NOT NULL,
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "flags" BIGINT NOT NULL DEFAULT 0,
    "xml_line" BIGINT,
    "identity" BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."correlation_samples" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "correlation_id" BIGINT NOT NULL,
    "sample_table" TEXT NOT NULL,
    "sample_id" BIGINT NOT NULL,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."sync_identifiers" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "source_name" TEXT NOT NULL,
    "sync_identifier" TEXT NOT NULL,
    "version" BIGINT NOT NULL,
    "row_table" TEXT NOT NULL,
    "row_id" BIGINT NOT NULL,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."hrv_beats" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "sample_id" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,
    "bpm" DOUBLE PRECISION,
    "time" TEXT,
    "raw_time" TEXT,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."workouts" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "activity_type" TEXT NOT NULL,
    "source_id" BIGINT NOT NULL,
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "duration" DOUBLE PRECISION,
    "duration_unit" TEXT,
    "total_distance" DOUBLE PRECISION,
    "total_distance_unit" TEXT,
    "total_energy_burned" DOUBLE PRECISION,
    "total_energy_burned_unit" TEXT,
    "raw_total_distance" DOUBLE PRECISION,
    "raw_total_distance_unit" TEXT,
    "raw_total_energy_burned" DOUBLE PRECISION,
    "raw_total_energy_burned_unit" TEXT,
    "flags" BIGINT NOT NULL DEFAULT 0,
    "xml_line" BIGINT,
    "identity" BIGINT NOT NULL DEFAULT 0,
    "local_start" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."workout_duplicates" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "workout_id" BIGINT NOT NULL,
    "probable_duplicate_of" BIGINT NOT NULL,
    "overlap_fraction" DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."workout_events" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "workout_id" BIGINT NOT NULL,
    "activity_id" BIGINT,
    "type" TEXT NOT NULL,
    "date" TEXT,
    "duration" DOUBLE PRECISION,
    "duration_unit" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."workout_activities" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "workout_id" BIGINT NOT NULL,
    "uuid" TEXT,
    "start_date" TEXT,
    "end_date" TEXT,
    "duration" DOUBLE PRECISION,
    "duration_unit" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."workout_statistics" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "workout_id" BIGINT NOT NULL,
    "activity_id" BIGINT,
    "type" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "average" DOUBLE PRECISION,
    "minimum" DOUBLE PRECISION,
    "maximum" DOUBLE PRECISION,
    "sum" DOUBLE PRECISION,
    "unit" TEXT,
    "raw_unit" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."workout_routes" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "workout_id" BIGINT NOT NULL,
    "source_id" BIGINT NOT NULL,
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "file_path" TEXT,
    "point_count" BIGINT NOT NULL,
    "problem" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."route_points" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "route_id" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,
    "time" TEXT,
    "latitude" DOUBLE PRECISION NOT NULL,
    "longitude" DOUBLE PRECISION NOT NULL,
    "elevation" DOUBLE PRECISION,
    "speed" DOUBLE PRECISION,
    "course" DOUBLE PRECISION,
    "horizontal_accuracy" DOUBLE PRECISION,
    "vertical_accuracy" DOUBLE PRECISION,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."data_types" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "unit" TEXT,
    "row_table" TEXT NOT NULL,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."activity_summaries" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "date" TEXT,
    "active_energy_burned" DOUBLE PRECISION,
    "active_energy_burned_goal" DOUBLE PRECISION,
    "active_energy_burned_unit" TEXT,
    "apple_move_time" DOUBLE PRECISION,
    "apple_move_time_goal" DOUBLE PRECISION,
    "apple_exercise_time" DOUBLE PRECISION,
    "apple_exercise_time_goal" DOUBLE PRECISION,
    "apple_stand_hours" DOUBLE PRECISION,
    "apple_stand_hours_goal" DOUBLE PRECISION,
    "other_json" TEXT,
    "raw_active_energy_burned_unit" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."ecg_recordings" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "file_name" TEXT NOT NULL,
    "recorded_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "classification" TEXT,
    "symptoms" TEXT,
    "software_version" TEXT,
    "device" TEXT,
    "sample_rate_hz" DOUBLE PRECISION,
    "lead" TEXT,
    "unit" TEXT,
    "sample_count" BIGINT NOT NULL,
    "samples" BYTEA,
    "header_json" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."clinical_records" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "type" TEXT,
    "identifier" TEXT,
    "source_name" TEXT,
    "source_url" TEXT,
    "fhir_version" TEXT,
    "received_date" TEXT,
    "resource_file_path" TEXT,
    "resource_json" TEXT,
    "problem" TEXT,
    "xml_line" BIGINT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."audiograms" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "source_id" BIGINT NOT NULL,
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "xml_line" BIGINT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."audiogram_points" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "audiogram_id" BIGINT NOT NULL,
    "frequency" DOUBLE PRECISION,
    "frequency_unit" TEXT,
    "left_ear_value" DOUBLE PRECISION,
    "left_ear_unit" TEXT,
    "right_ear_value" DOUBLE PRECISION,
    "right_ear_unit" TEXT,
    "attributes_json" TEXT,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."vision_prescriptions" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "type" TEXT,
    "date_issued" TEXT,
    "expiration_date" TEXT,
    "brand" TEXT,
    "attributes_json" TEXT,
    "right_eye_json" TEXT,
    "left_eye_json" TEXT,
    "attachments_json" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."state_of_mind" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "identifier" TEXT,
    "source_name" TEXT NOT NULL,
    "kind" TEXT,
    "start_date" TEXT,
    "end_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "valence" DOUBLE PRECISION,
    "valence_shifted" DOUBLE PRECISION,
    "valence_percent" DOUBLE PRECISION,
    "classification" TEXT,
    "labels_json" TEXT,
    "associations_json" TEXT,
    "metadata_json" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."me" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."documents" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "content" BYTEA,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."import_runs" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "input_path" TEXT,
    "input_size" BIGINT,
    "input_kind" TEXT,
    "main_entry" TEXT,
    "export_date" TEXT,
    "export_utc_offset" TEXT,
    "locale" TEXT,
    "time_zone" TEXT,
    "started_at" TEXT,
    "finished_at" TEXT,
    "outcome" TEXT,
    "tool_version" TEXT,
    "summary_json" TEXT,
    "input_fingerprint" TEXT,
    "error" TEXT,
    "added" BIGINT,
    "replaced" BIGINT,
    "deleted" BIGINT,
    "unchanged" BIGINT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."import_warnings" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "run_id" BIGINT NOT NULL,
    "message" TEXT NOT NULL,
    "count" BIGINT NOT NULL,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."anchors" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "row_table" TEXT NOT NULL,
    "row_count" BIGINT NOT NULL,
    "newest_end_date" TEXT,
    "newest_creation_date" TEXT,
    "fingerprint" TEXT NOT NULL,
    "export_date" TEXT,
    "run_id" BIGINT,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."deleted_samples" (
    person TEXT COLLATE "C" NOT NULL,
    "id" BIGINT NOT NULL,
    "run_id" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "row_table" TEXT NOT NULL,
    "row_id" BIGINT NOT NULL,
    "type" TEXT,
    "source_name" TEXT,
    "start_date" TEXT,
    "end_date" TEXT,
    "local_date" TEXT,
    "identity" BIGINT,
    "row_json" TEXT,
    "metadata_json" TEXT,
    PRIMARY KEY (person, id)
);

CREATE TABLE healthetl."import_run_changes" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "run_id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "row_table" TEXT NOT NULL,
    "added" BIGINT NOT NULL,
    "replaced" BIGINT NOT NULL,
    "deleted" BIGINT NOT NULL,
    "unchanged" BIGINT NOT NULL,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."rollups" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "period" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "period_start" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "statistic" TEXT NOT NULL,
    "column_name" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "unit" TEXT,
    "sources" TEXT,
    PRIMARY KEY (person, row_key)
);

CREATE TABLE healthetl."settings" (
    person TEXT COLLATE "C" NOT NULL,
    row_key BIGINT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT,
    PRIMARY KEY (person, row_key)
);

CREATE INDEX cumulative_samples_person_type_start ON healthetl.cumulative_samples USING brin (person, type, start_date);

CREATE INDEX discrete_samples_person_type_start ON healthetl.discrete_samples USING brin (person, type, start_date);

CREATE INDEX category_samples_person_type_start ON healthetl.category_samples USING brin (person, type, start_date);

CREATE INDEX metadata_parent ON healthetl.metadata USING brin (person, parent_table, parent_id);

CREATE INDEX hrv_beats_sample ON healthetl.hrv_beats USING brin (person, sample_id);

CREATE INDEX route_points_route ON healthetl.route_points USING brin (person, route_id, seq);

CREATE INDEX workouts_start ON healthetl.workouts USING brin (person, start_date);

CREATE INDEX workout_statistics_workout ON healthetl.workout_statistics USING brin (person, workout_id);

CREATE INDEX workout_routes_workout ON healthetl.workout_routes USING brin (person, workout_id);

CREATE INDEX correlation_samples_correlation ON healthetl.correlation_samples USING brin (person, correlation_id);

CREATE INDEX correlation_samples_sample ON healthetl.correlation_samples USING brin (person, sample_table, sample_id);

CREATE INDEX deleted_samples_run ON healthetl.deleted_samples USING brin (person, run_id);

CREATE INDEX rollups_period ON healthetl.rollups USING brin (person, period, label);

CREATE INDEX rollups_type ON healthetl.rollups USING brin (person, type, period_start);

CREATE VIEW healthetl.all_quantity_samples AS
    SELECT 'cumulative' AS aggregation, * FROM healthetl.cumulative_samples
    UNION ALL SELECT 'discrete' AS aggregation, * FROM healthetl.discrete_samples;

CREATE VIEW healthetl.sleep AS
    SELECT person, id, source_name, start_date, end_date, local_date,
           replace(value, 'HKCategoryValueSleepAnalysis', '') AS stage,
           extract(epoch FROM end_date::timestamptz - start_date::timestamptz) / 3600 AS hours
    FROM healthetl.category_samples WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis';

CREATE VIEW healthetl.daily_rollups AS
    SELECT person, label AS date, type, statistic, column_name, value, unit, sources
    FROM healthetl.rollups WHERE period = 'day';

CREATE VIEW healthetl.workout_overview AS
    SELECT w.person, w.id AS workout_id,
           coalesce((SELECT display_name FROM healthetl.data_types t WHERE t.type = w.activity_type
                     AND t.row_table = 'workouts' AND t.person = w.person), w.activity_type) AS activity,
           w.local_date,
           replace(substr(w.local_start, 1, 16), 'T', ' ') AS local_start,
           CASE w.duration_unit WHEN 'min' THEN w.duration WHEN 's' THEN w.duration / 60
               WHEN 'hr' THEN w.duration * 60 END AS duration_min,
           CASE w.total_distance_unit WHEN 'm' THEN w.total_distance / 1000 WHEN 'km' THEN w.total_distance
               WHEN 'mi' THEN w.total_distance * 1.609344 WHEN 'yd' THEN w.total_distance * 0.0009144
               END AS distance_km,
           CASE w.total_energy_burned_unit WHEN 'kcal' THEN w.total_energy_burned
               WHEN 'Cal' THEN w.total_energy_burned WHEN 'kJ' THEN w.total_energy_burned / 4.184
               END AS active_energy_kcal,
           coalesce(
               (SELECT average FROM healthetl.workout_statistics s WHERE s.workout_id = w.id AND s.person = w.person
                AND s.activity_id IS NULL AND s.type = 'HKQuantityTypeIdentifierHeartRate'),
               (SELECT avg(value) FROM healthetl.discrete_samples d WHERE d.type = 'HKQuantityTypeIdentifierHeartRate' AND d.person = w.person
                AND d.start_date >= w.start_date AND d.start_date <= w.end_date)) AS avg_heart_rate,
           coalesce(
               (SELECT maximum FROM healthetl.workout_statistics s WHERE s.workout_id = w.id AND s.person = w.person
                AND s.activity_id IS NULL AND s.type = 'HKQuantityTypeIdentifierHeartRate'),
               (SELECT max(value) FROM healthetl.discrete_samples d WHERE d.type = 'HKQuantityTypeIdentifierHeartRate' AND d.person = w.person
                AND d.start_date >= w.start_date AND d.start_date <= w.end_date)) AS max_heart_rate,
           (SELECT max(number) FROM healthetl.metadata m WHERE m.parent_table = 'workouts'
            AND m.parent_id = w.id AND m.person = w.person AND m.key = 'HKElevationAscended' AND m.number_unit = 'm')
               AS elevation_gain_m,
           (SELECT max(CASE WHEN m.value IN ('1', 'true', 'YES') THEN 1 ELSE 0 END) FROM healthetl.metadata m
            WHERE m.parent_table = 'workouts' AND m.parent_id = w.id AND m.person = w.person AND m.key = 'HKIndoorWorkout')
               AS indoor,
           w.source_name AS source,
           (SELECT coalesce(sum(point_count), 0) FROM healthetl.workout_routes r
            WHERE r.workout_id = w.id AND r.person = w.person) AS route_points,
           w.activity_type, w.start_date, w.end_date
    FROM healthetl.workouts w;

CREATE TABLE healthetl.schema_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);

INSERT INTO healthetl.schema_info VALUES ('schema_version', '3');
