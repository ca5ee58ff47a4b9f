PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
INSERT INTO cumulative_samples VALUES(1,'HKQuantityTypeIdentifierStepCount',1,'Phone','2024-02-01T22:30:00Z','2024-02-01T22:40:00Z',NULL,'+01:00','2024-02-01',100.0,'count',100.0,'count',0,6,8394045888484510192);
INSERT INTO cumulative_samples VALUES(2,'HKQuantityTypeIdentifierStepCount',1,'Phone','2024-02-01T23:30:00Z','2024-02-01T23:40:00Z',NULL,'+01:00','2024-02-02',50.0,'count',50.0,'count',0,7,-6927715641055835430);
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
INSERT INTO discrete_samples VALUES(1,'HKQuantityTypeIdentifierHeartRate',2,'Watch','2024-02-01T07:00:00Z','2024-02-01T07:00:00Z',NULL,'+01:00','2024-02-01',61.0,'count/min',61.0,'count/min',0,8,-1450259998727323902);
INSERT INTO discrete_samples VALUES(2,'HKQuantityTypeIdentifierBloodPressureSystolic',3,'Cuff','2024-02-01T07:00:00Z','2024-02-01T07:00:00Z',NULL,'+01:00','2024-02-01',120.0,'mmHg',120.0,'mmHg',0,11,-4485883808340185423);
INSERT INTO discrete_samples VALUES(3,'HKQuantityTypeIdentifierBloodPressureDiastolic',3,'Cuff','2024-02-01T07:00:00Z','2024-02-01T07:00:00Z',NULL,'+01:00','2024-02-01',80.0,'mmHg',80.0,'mmHg',0,12,-1783135739716559728);
INSERT INTO discrete_samples VALUES(4,'HKDataTypeSleepDurationGoal',4,'Health','2024-02-01T07:00:00Z','2024-02-01T07:00:00Z',NULL,'+01:00','2024-02-01',8.0,'hr',8.0,'hr',0,14,1308224057831945520);
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
INSERT INTO category_samples VALUES(1,'HKCategoryTypeIdentifierSleepAnalysis',2,'Watch','2024-02-01T22:00:00Z','2024-02-02T06:00:00Z',NULL,'+01:00','2024-02-01','HKCategoryValueSleepAnalysisInBed',NULL,'HKCategoryValueSleepAnalysisInBed',NULL,0,13,-7462091537677034804);
CREATE TABLE IF NOT EXISTS "metadata" (
    "parent_table" TEXT NOT NULL,
    "parent_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT,
    "number" REAL,
    "number_unit" TEXT
);
INSERT INTO metadata VALUES('discrete_samples',1,'HKMetadataKeyHeartRateMotionContext','1',1.0,NULL);
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
INSERT INTO sources VALUES(1,'Phone',NULL,'iPhone',NULL,'iPhone',NULL,NULL,'name:iPhone, model:iPhone');
INSERT INTO sources VALUES(2,'Watch',NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO sources VALUES(3,'Cuff',NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO sources VALUES(4,'Health',NULL,NULL,NULL,NULL,NULL,NULL,NULL);
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
    "xml_line" INTEGER
);
INSERT INTO correlations VALUES(1,'HKCorrelationTypeIdentifierBloodPressure',3,'Cuff','2024-02-01T07:00:00Z','2024-02-01T07:00:00Z',NULL,'+01:00','2024-02-01',0,15);
CREATE TABLE IF NOT EXISTS "correlation_samples" (
    "correlation_id" INTEGER NOT NULL REFERENCES correlations(id),
    "sample_table" TEXT NOT NULL,
    "sample_id" INTEGER NOT NULL
);
INSERT INTO correlation_samples VALUES(1,'discrete_samples',2);
INSERT INTO correlation_samples VALUES(1,'discrete_samples',3);
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
    "xml_line" INTEGER
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
INSERT INTO activity_summaries VALUES(1,'2024-02-01',590.2519999999999527,630.0,'kcal',NULL,NULL,NULL,NULL,NULL,NULL,'{"appleMoveMinutes":3.0}',NULL);
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
INSERT INTO me VALUES('HKCharacteristicTypeIdentifierDateOfBirth','');
INSERT INTO me VALUES('HKCharacteristicTypeIdentifierBiologicalSex','HKBiologicalSexFemale');
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
    "summary_json" TEXT
);
INSERT INTO import_runs VALUES(1,'/tmp/v1out/export.xml',2442,'xml','export.xml','2024-03-01T09:00:00Z','+01:00','en_US','Europe/Berlin','2026-11-29T15:27:06Z','2026-11-29T15:27:06Z','ok','0.1.0','{"dropped":{},"exportDate":"2024-03-01T09:00:00Z","exportUTCOffset":"+01:00","finishedAt":"2026-11-29T15:27:06Z","flagged":{},"input":"\/tmp\/v1out\/export.xml","inputBytes":2442,"inputKind":"xml","items":{"activity summaries":1,"characteristics":1,"correlations":1,"records":7},"locale":"en_US","mainEntry":"export.xml","removedControlCharacters":0,"rows":{"activity_summaries":1,"category_samples":1,"correlation_samples":2,"correlations":1,"cumulative_samples":2,"discrete_samples":4,"me":2,"metadata":1,"sources":4},"seconds":0.005222629,"stages":{},"startedAt":"2026-11-29T15:27:06Z","timeZone":"Europe\/Berlin","toolVersion":"0.1.0","warnings":{},"xmlBytes":2442}');
CREATE TABLE IF NOT EXISTS "import_warnings" (
    "run_id" INTEGER NOT NULL REFERENCES import_runs(id),
    "message" TEXT NOT NULL,
    "count" INTEGER NOT NULL
);
ANALYZE sqlite_schema;
INSERT INTO sqlite_stat1 VALUES('import_runs',NULL,'1');
INSERT INTO sqlite_stat1 VALUES('me','sqlite_autoindex_me_1','2 1');
INSERT INTO sqlite_stat1 VALUES('cumulative_samples','sqlite_autoindex_cumulative_samples_1','2 2 1 1');
INSERT INTO sqlite_stat1 VALUES('discrete_samples','sqlite_autoindex_discrete_samples_1','4 1 1 1');
INSERT INTO sqlite_stat1 VALUES('sources',NULL,'4');
INSERT INTO sqlite_stat1 VALUES('metadata','metadata_parent','1 1 1');
INSERT INTO sqlite_stat1 VALUES('correlations',NULL,'1');
INSERT INTO sqlite_stat1 VALUES('activity_summaries',NULL,'1');
INSERT INTO sqlite_stat1 VALUES('category_samples','sqlite_autoindex_category_samples_1','1 1 1 1');
INSERT INTO sqlite_stat1 VALUES('correlation_samples','correlation_samples_correlation','2 2');
CREATE INDEX metadata_parent ON metadata(parent_table, parent_id);
CREATE INDEX hrv_beats_sample ON hrv_beats(sample_id);
CREATE INDEX route_points_route ON route_points(route_id, seq);
CREATE INDEX workouts_start ON workouts(start_date);
CREATE INDEX correlation_samples_correlation ON correlation_samples(correlation_id);
CREATE VIEW all_quantity_samples AS
    SELECT 'cumulative' AS aggregation, * FROM cumulative_samples
    UNION ALL SELECT 'discrete' AS aggregation, * FROM discrete_samples;
CREATE VIEW sleep AS
    SELECT id, source_name, start_date, end_date, local_date,
           replace(value, 'HKCategoryValueSleepAnalysis', '') AS stage,
           (julianday(end_date) - julianday(start_date)) * 24 AS hours
    FROM category_samples WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis';
COMMIT;
PRAGMA user_version = 1;
