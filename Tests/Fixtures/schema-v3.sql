CREATE TABLE IF NOT EXISTS "cumulative_samples" (
    "id" INTEGER PRIMARY KEY,
    "type" TEXT NOT NULL,
    "source_id" INTEGER NOT NULL REFERENCES sources(id),
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "value" REAL,
    "unit" TEXT,
    "raw_value" REAL,
    "raw_unit" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "xml_line" INTEGER,
    "identity" INTEGER NOT NULL,
    UNIQUE (type, start_date, identity)
);
CREATE TABLE IF NOT EXISTS "discrete_samples" (
    "id" INTEGER PRIMARY KEY,
    "type" TEXT NOT NULL,
    "source_id" INTEGER NOT NULL REFERENCES sources(id),
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "value" REAL,
    "unit" TEXT,
    "raw_value" REAL,
    "raw_unit" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "xml_line" INTEGER,
    "identity" INTEGER NOT NULL,
    UNIQUE (type, start_date, identity)
);
CREATE TABLE IF NOT EXISTS "category_samples" (
    "id" INTEGER PRIMARY KEY,
    "type" TEXT NOT NULL,
    "source_id" INTEGER NOT NULL REFERENCES sources(id),
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
    "flags" INTEGER NOT NULL DEFAULT 0,
    "xml_line" INTEGER,
    "identity" INTEGER NOT NULL,
    UNIQUE (type, start_date, identity)
);
CREATE TABLE IF NOT EXISTS "metadata" (
    "parent_table" TEXT NOT NULL,
    "parent_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT,
    "number" REAL,
    "number_unit" TEXT
);
CREATE TABLE IF NOT EXISTS "sources" (
    "id" INTEGER PRIMARY KEY,
    "name" TEXT NOT NULL,
    "version" TEXT,
    "device_name" TEXT,
    "device_manufacturer" TEXT,
    "device_model" TEXT,
    "device_hardware" TEXT,
    "device_software" TEXT,
    "device" TEXT
);
CREATE TABLE IF NOT EXISTS "correlations" (
    "id" INTEGER PRIMARY KEY,
    "type" TEXT NOT NULL,
    "source_id" INTEGER NOT NULL REFERENCES sources(id),
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "xml_line" INTEGER,
    "identity" INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS "correlation_samples" (
    "correlation_id" INTEGER NOT NULL REFERENCES correlations(id),
    "sample_table" TEXT NOT NULL,
    "sample_id" INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS "sync_identifiers" (
    "source_name" TEXT NOT NULL,
    "sync_identifier" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "row_table" TEXT NOT NULL,
    "row_id" INTEGER NOT NULL,
    PRIMARY KEY (source_name, sync_identifier)
);
CREATE TABLE IF NOT EXISTS "hrv_beats" (
    "sample_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "bpm" REAL,
    "time" TEXT,
    "raw_time" TEXT
);
CREATE TABLE IF NOT EXISTS "workouts" (
    "id" INTEGER PRIMARY KEY,
    "activity_type" TEXT NOT NULL,
    "source_id" INTEGER NOT NULL REFERENCES sources(id),
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "duration" REAL,
    "duration_unit" TEXT,
    "total_distance" REAL,
    "total_distance_unit" TEXT,
    "total_energy_burned" REAL,
    "total_energy_burned_unit" TEXT,
    "raw_total_distance" REAL,
    "raw_total_distance_unit" TEXT,
    "raw_total_energy_burned" REAL,
    "raw_total_energy_burned_unit" TEXT,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "xml_line" INTEGER,
    "identity" INTEGER NOT NULL DEFAULT 0,
    "local_start" TEXT
);
CREATE TABLE IF NOT EXISTS "workout_duplicates" (
    "workout_id" INTEGER NOT NULL REFERENCES workouts(id),
    "probable_duplicate_of" INTEGER NOT NULL REFERENCES workouts(id),
    "overlap_fraction" REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS "workout_events" (
    "id" INTEGER PRIMARY KEY,
    "workout_id" INTEGER NOT NULL REFERENCES workouts(id),
    "activity_id" INTEGER REFERENCES workout_activities(id),
    "type" TEXT NOT NULL,
    "date" TEXT,
    "duration" REAL,
    "duration_unit" TEXT
);
CREATE TABLE IF NOT EXISTS "workout_activities" (
    "id" INTEGER PRIMARY KEY,
    "workout_id" INTEGER NOT NULL REFERENCES workouts(id),
    "uuid" TEXT,
    "start_date" TEXT,
    "end_date" TEXT,
    "duration" REAL,
    "duration_unit" TEXT
);
CREATE TABLE IF NOT EXISTS "workout_statistics" (
    "id" INTEGER PRIMARY KEY,
    "workout_id" INTEGER NOT NULL REFERENCES workouts(id),
    "activity_id" INTEGER REFERENCES workout_activities(id),
    "type" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "average" REAL,
    "minimum" REAL,
    "maximum" REAL,
    "sum" REAL,
    "unit" TEXT,
    "raw_unit" TEXT
);
CREATE TABLE IF NOT EXISTS "workout_routes" (
    "id" INTEGER PRIMARY KEY,
    "workout_id" INTEGER NOT NULL REFERENCES workouts(id),
    "source_id" INTEGER NOT NULL REFERENCES sources(id),
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "file_path" TEXT,
    "point_count" INTEGER NOT NULL,
    "problem" TEXT
);
CREATE TABLE IF NOT EXISTS "route_points" (
    "route_id" INTEGER NOT NULL REFERENCES workout_routes(id),
    "seq" INTEGER NOT NULL,
    "time" TEXT,
    "latitude" REAL NOT NULL,
    "longitude" REAL NOT NULL,
    "elevation" REAL,
    "speed" REAL,
    "course" REAL,
    "horizontal_accuracy" REAL,
    "vertical_accuracy" REAL
);
CREATE TABLE IF NOT EXISTS "data_types" (
    "type" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "unit" TEXT,
    "row_table" TEXT NOT NULL,
    PRIMARY KEY (type, row_table)
);
CREATE TABLE IF NOT EXISTS "activity_summaries" (
    "id" INTEGER PRIMARY KEY,
    "date" TEXT,
    "active_energy_burned" REAL,
    "active_energy_burned_goal" REAL,
    "active_energy_burned_unit" TEXT,
    "apple_move_time" REAL,
    "apple_move_time_goal" REAL,
    "apple_exercise_time" REAL,
    "apple_exercise_time_goal" REAL,
    "apple_stand_hours" REAL,
    "apple_stand_hours_goal" REAL,
    "other_json" TEXT,
    "raw_active_energy_burned_unit" TEXT
);
CREATE TABLE IF NOT EXISTS "ecg_recordings" (
    "id" INTEGER PRIMARY KEY,
    "file_name" TEXT NOT NULL,
    "recorded_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "classification" TEXT,
    "symptoms" TEXT,
    "software_version" TEXT,
    "device" TEXT,
    "sample_rate_hz" REAL,
    "lead" TEXT,
    "unit" TEXT,
    "sample_count" INTEGER NOT NULL,
    "samples" BLOB,
    "header_json" TEXT
);
CREATE TABLE IF NOT EXISTS "clinical_records" (
    "id" INTEGER PRIMARY KEY,
    "type" TEXT,
    "identifier" TEXT,
    "source_name" TEXT,
    "source_url" TEXT,
    "fhir_version" TEXT,
    "received_date" TEXT,
    "resource_file_path" TEXT,
    "resource_json" TEXT,
    "problem" TEXT,
    "xml_line" INTEGER
);
CREATE TABLE IF NOT EXISTS "audiograms" (
    "id" INTEGER PRIMARY KEY,
    "type" TEXT NOT NULL,
    "source_id" INTEGER NOT NULL REFERENCES sources(id),
    "source_name" TEXT NOT NULL,
    "start_date" TEXT,
    "end_date" TEXT,
    "creation_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "xml_line" INTEGER
);
CREATE TABLE IF NOT EXISTS "audiogram_points" (
    "audiogram_id" INTEGER NOT NULL REFERENCES audiograms(id),
    "frequency" REAL,
    "frequency_unit" TEXT,
    "left_ear_value" REAL,
    "left_ear_unit" TEXT,
    "right_ear_value" REAL,
    "right_ear_unit" TEXT,
    "attributes_json" TEXT
);
CREATE TABLE IF NOT EXISTS "vision_prescriptions" (
    "id" INTEGER PRIMARY KEY,
    "type" TEXT,
    "date_issued" TEXT,
    "expiration_date" TEXT,
    "brand" TEXT,
    "attributes_json" TEXT,
    "right_eye_json" TEXT,
    "left_eye_json" TEXT,
    "attachments_json" TEXT
);
CREATE TABLE IF NOT EXISTS "state_of_mind" (
    "id" INTEGER PRIMARY KEY,
    "identifier" TEXT,
    "source_name" TEXT NOT NULL,
    "kind" TEXT,
    "start_date" TEXT,
    "end_date" TEXT,
    "utc_offset" TEXT,
    "local_date" TEXT,
    "valence" REAL,
    "valence_shifted" REAL,
    "valence_percent" REAL,
    "classification" TEXT,
    "labels_json" TEXT,
    "associations_json" TEXT,
    "metadata_json" TEXT
);
CREATE TABLE IF NOT EXISTS "me" (
    "key" TEXT PRIMARY KEY,
    "value" TEXT
);
CREATE TABLE IF NOT EXISTS "documents" (
    "name" TEXT PRIMARY KEY,
    "content" BLOB
);
CREATE TABLE IF NOT EXISTS "import_runs" (
    "id" INTEGER PRIMARY KEY,
    "input_path" TEXT,
    "input_size" INTEGER,
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
    "added" INTEGER,
    "replaced" INTEGER,
    "deleted" INTEGER,
    "unchanged" INTEGER
);
CREATE TABLE IF NOT EXISTS "import_warnings" (
    "run_id" INTEGER NOT NULL REFERENCES import_runs(id),
    "message" TEXT NOT NULL,
    "count" INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS "anchors" (
    "type" TEXT PRIMARY KEY,
    "row_table" TEXT NOT NULL,
    "row_count" INTEGER NOT NULL,
    "newest_end_date" TEXT,
    "newest_creation_date" TEXT,
    "fingerprint" TEXT NOT NULL,
    "export_date" TEXT,
    "run_id" INTEGER
);
CREATE TABLE IF NOT EXISTS "deleted_samples" (
    "id" INTEGER PRIMARY KEY,
    "run_id" INTEGER NOT NULL REFERENCES import_runs(id),
    "reason" TEXT NOT NULL,
    "row_table" TEXT NOT NULL,
    "row_id" INTEGER NOT NULL,
    "type" TEXT,
    "source_name" TEXT,
    "start_date" TEXT,
    "end_date" TEXT,
    "local_date" TEXT,
    "identity" INTEGER,
    "row_json" TEXT,
    "metadata_json" TEXT
);
CREATE TABLE IF NOT EXISTS "import_run_changes" (
    "run_id" INTEGER NOT NULL REFERENCES import_runs(id),
    "type" TEXT NOT NULL,
    "row_table" TEXT NOT NULL,
    "added" INTEGER NOT NULL,
    "replaced" INTEGER NOT NULL,
    "deleted" INTEGER NOT NULL,
    "unchanged" INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS "rollups" (
    "period" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "period_start" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "statistic" TEXT NOT NULL,
    "column_name" TEXT NOT NULL,
    "value" REAL,
    "unit" TEXT,
    "sources" TEXT
);
CREATE TABLE IF NOT EXISTS "settings" (
    "key" TEXT PRIMARY KEY,
    "value" TEXT
);
CREATE VIEW all_quantity_samples AS
    SELECT 'cumulative' AS aggregation, * FROM cumulative_samples
    UNION ALL SELECT 'discrete' AS aggregation, * FROM discrete_samples
/* all_quantity_samples(aggregation,id,type,source_id,source_name,start_date,end_date,creation_date,utc_offset,local_date,value,unit,raw_value,raw_unit,flags,xml_line,identity) */;
CREATE VIEW sleep AS
    SELECT id, source_name, start_date, end_date, local_date,
           replace(value, 'HKCategoryValueSleepAnalysis', '') AS stage,
           (julianday(end_date) - julianday(start_date)) * 24 AS hours
    FROM category_samples WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis'
/* sleep(id,source_name,start_date,end_date,local_date,stage,hours) */;
CREATE VIEW daily_rollups AS
    SELECT label AS date, type, statistic, column_name, value, unit, sources
    FROM rollups WHERE period = 'day'
/* daily_rollups(date,type,statistic,column_name,value,unit,sources) */;
CREATE VIEW workout_overview AS
    SELECT w.id AS workout_id,
           coalesce((SELECT display_name FROM data_types t WHERE t.type = w.activity_type
                     AND t.row_table = 'workouts'), w.activity_type) AS activity,
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
               (SELECT average FROM workout_statistics s WHERE s.workout_id = w.id
                AND s.activity_id IS NULL AND s.type = 'HKQuantityTypeIdentifierHeartRate'),
               (SELECT avg(value) FROM discrete_samples d WHERE d.type = 'HKQuantityTypeIdentifierHeartRate'
                AND d.start_date >= w.start_date AND d.start_date <= w.end_date)) AS avg_heart_rate,
           coalesce(
               (SELECT maximum FROM workout_statistics s WHERE s.workout_id = w.id
                AND s.activity_id IS NULL AND s.type = 'HKQuantityTypeIdentifierHeartRate'),
               (SELECT max(value) FROM discrete_samples d WHERE d.type = 'HKQuantityTypeIdentifierHeartRate'
                AND d.start_date >= w.start_date AND d.start_date <= w.end_date)) AS max_heart_rate,
           (SELECT max(number) FROM metadata m WHERE m.parent_table = 'workouts'
            AND m.parent_id = w.id AND m.key = 'HKElevationAscended' AND m.number_unit = 'm')
               AS elevation_gain_m,
           (SELECT max(CASE WHEN m.value IN ('1', 'true', 'YES') THEN 1 ELSE 0 END) FROM metadata m
            WHERE m.parent_table = 'workouts' AND m.parent_id = w.id AND m.key = 'HKIndoorWorkout')
               AS indoor,
           w.source_name AS source,
           (SELECT coalesce(sum(point_count), 0) FROM workout_routes r
            WHERE r.workout_id = w.id) AS route_points,
           w.activity_type, w.start_date, w.end_date
    FROM workouts w
/* workout_overview(workout_id,activity,local_date,local_start,duration_min,distance_km,active_energy_kcal,avg_heart_rate,max_heart_rate,elevation_gain_m,indoor,source,route_points,activity_type,start_date,end_date) */;
CREATE INDEX metadata_parent ON metadata(parent_table, parent_id);
CREATE INDEX hrv_beats_sample ON hrv_beats(sample_id);
CREATE INDEX route_points_route ON route_points(route_id, seq);
CREATE INDEX workouts_start ON workouts(start_date);
CREATE INDEX workout_statistics_workout ON workout_statistics(workout_id);
CREATE INDEX workout_routes_workout ON workout_routes(workout_id);
CREATE INDEX correlation_samples_correlation ON correlation_samples(correlation_id);
CREATE INDEX workouts_identity ON workouts(identity);
CREATE INDEX correlations_identity ON correlations(identity);
CREATE INDEX correlation_samples_sample ON correlation_samples(sample_table, sample_id);
CREATE INDEX sync_identifiers_row ON sync_identifiers(row_table, row_id);
CREATE INDEX deleted_samples_run ON deleted_samples(run_id);
CREATE INDEX rollups_period ON rollups(period, label);
CREATE INDEX rollups_type ON rollups(type, period_start);
