// swift-tools-version:6.0
import PackageDescription

// The layers of healthetl, lowest first; each target names the targets it imports, so a layer cannot reach up,
// and only the targets that list a C library can call it (docs/architecture.md draws the graph):
//
//   HealthModel      values and vocabulary; no C
//   HealthJSON       the JSON grammar (one cursor, one error with line and column), the tree parser, the one
//                    quoter; read by MCP, pipeline files, FHIR's check and the feed's streaming scanner; on nothing
//   HealthReading, HealthStages, HealthRollups, HealthSQLite   each on the model only (C: libxml2+zlib, sqlite3)
//   HealthSchema     on model, SQLite wrapper: the schema described once, migrations, opening a database to read it
//   HealthStore      the writer: on model, rollups, SQLite wrapper, schema
//   HealthImport     on reading, stages, store
//   HealthCSV, HTMLReport, HealthDatasette, HealthMCP: the reading peers, each on the schema only (never the writer)
//   HealthPostgres   the PostgreSQL back end (libpq): on the store, whose import it runs on a working copy
//   HealthPipelines  composes the import and the sinks;  HealthETL (the CLI) on pipelines;  healthetl on the CLI
//
// Internal API shared between targets is `package`, not `public`.

// No compiler flags here: SwiftPM refuses a package with unsafe compiler flags as a dependency. The shipped executable's
// settings (exclusivity checks off, cross-module optimisation) are given by scripts/release-flags.

let package = Package(
    name: "healthetl",
    products: [
        .library(
            name: "HealthETL",
            targets: [
                "HealthETL", "HealthPipelines", "HealthPostgres", "HTMLReport", "HealthCSV", "HealthDatasette",
                "HealthMCP", "HealthLake", "HealthParquet", "HealthDeidentify", "HealthWorkoutFiles", "HealthFHIR",
                "HealthImport", "HealthStore", "HealthSchema", "HealthSQLite", "HealthRollups", "HealthStages",
                "HealthReading",
                "HealthModel", "HealthJSON",
            ]),
        .executable(name: "healthetl", targets: ["healthetl"]),
        .executable(name: "generate-export", targets: ["generate-export"]),
    ],
    targets: [
        // C libraries from Debian packages (see README: libxml2-dev, libsqlite3-dev, zlib1g-dev, libpq-dev, libzstd-dev).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libpq, for the PostgreSQL sink (many people's exports in one server database).
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libzstd, the codec of the Parquet pages.
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // OpenSSL's libcrypto: the de-identified copy's HMAC-SHA256 and SipHash (never a primitive of our own).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // Value types and the shared vocabulary: items, timestamps, ImportError, ExportStage, ImportSummary.
        .target(name: "HealthModel"),
        // JSON in memory, with its limits and byte positions: `JSONParser` builds a `JSON` tree, `JSONGrammar` only
        // checks the grammar (no allocation). The feed's streaming `JSONArrayScanner` stays with its reader.
        .target(name: "HealthJSON"),
        // The export read as a stream of items: zip, XML (libxml2), side files, State of Mind JSON.
        .target(
            name: "HealthReading", dependencies: ["HealthModel", "HealthJSON", "CLibXML2", "CZlib"]),
        // Transforms between reader and sink: filter, units, valence.
        .target(name: "HealthStages", dependencies: ["HealthModel"]),
        // Statistics per hour, day, week and month from sorted samples (pure).
        .target(name: "HealthRollups", dependencies: ["HealthModel"]),
        // The only Swift files that call sqlite3: connection, statements, functions, row reader.
        .target(name: "HealthSQLite", dependencies: ["HealthModel", "CSQLite"]),
        // The schema, described once (tables, views, docs), its migrations, and what every reader of a database
        // shares: opening it to read (StoredDatabase), its lock's holder, AtomicFile.
        .target(
            name: "HealthSchema", dependencies: ["HealthModel", "HealthRollups", "HealthSQLite"]
        ),
        // The SQLite sink: dedup, re-imports, deletions, runs, rollup tables, status.
        .target(
            name: "HealthStore",
            dependencies: ["HealthModel", "HealthJSON", "HealthRollups", "HealthSQLite", "HealthSchema"]),
        // One import: reader → stages (on a second thread) → sink.
        .target(
            name: "HealthImport",
            dependencies: ["HealthModel", "HealthReading", "HealthStages", "HealthSchema", "HealthStore"]),
        // CSV folders from a database (or from an export through a scratch database).
        .target(
            name: "HealthCSV", dependencies: ["HealthModel", "HealthSQLite", "HealthSchema"]),
        // healthetl report: one HTML page from a database.
        .target(
            name: "HTMLReport", dependencies: ["HealthModel", "HealthSQLite", "HealthSchema"]),
        // The PostgreSQL back end: a working copy checked out, imported into, published back (libpq).
        .target(
            name: "HealthPostgres",
            dependencies: ["HealthModel", "HealthSQLite", "HealthSchema", "HealthStore", "CPostgres"]),
        // Datasette's metadata and canned queries from the schema.
        .target(
            name: "HealthDatasette", dependencies: ["HealthModel", "HealthSQLite", "HealthSchema"]),
        // healthetl mcp: an MCP server over stdio answering from a database, read-only by construction.
        .target(
            name: "HealthMCP",
            dependencies: ["HealthModel", "HealthJSON", "HealthRollups", "HealthSQLite", "HealthSchema"]),
        // The Parquet format, write side: Thrift compact footer and page headers, dictionary and RLE encodings (zstd).
        .target(name: "HealthParquet", dependencies: ["CZstd"]),
        // healthetl export --parquet: the lake of a database, one folder per table and view, a partition per person.
        .target(
            name: "HealthLake",
            dependencies: ["HealthModel", "HealthSQLite", "HealthSchema", "HealthParquet"]),
        // healthetl export --workouts: one FIT, TCX or GPX file per workout, for training apps.
        .target(
            name: "HealthWorkoutFiles", dependencies: ["HealthModel", "HealthSQLite", "HealthSchema"]),
        // healthetl export --fhir: FHIR R4 Bulk Data NDJSON (and IEEE 1752.1 data points) from a database.
        .target(
            name: "HealthFHIR", dependencies: ["HealthModel", "HealthJSON", "HealthSQLite", "HealthSchema"]),
        // healthetl deidentify: a copy of a database without names, identifiers, places or (optionally) true dates.
        .target(
            name: "HealthDeidentify",
            dependencies: ["HealthModel", "HealthRollups", "HealthSQLite", "HealthSchema", "HealthStore", "CCrypto"]),
        // Pipeline files and the plan of a run (which sinks), for both `import` and `run`.
        .target(
            name: "HealthPipelines",
            dependencies: [
                "HealthModel", "HealthJSON", "HealthStages", "HealthRollups", "HealthStore", "HealthImport",
                "HealthCSV", "HTMLReport", "HealthPostgres", "HealthLake", "HealthDeidentify", "HealthWorkoutFiles",
                "HealthFHIR",
            ]),
        // The command line as a testable value (Tool): parsing, help, summaries, exit codes.
        .target(
            name: "HealthETL",
            dependencies: [
                "HealthModel", "HealthStages", "HealthSchema", "HealthStore", "HealthImport", "HealthCSV",
                "HTMLReport", "HealthPostgres", "HealthDatasette", "HealthMCP", "HealthLake", "HealthDeidentify",
                "HealthPipelines", "HealthWorkoutFiles", "HealthFHIR",
            ]),
        // The executable only wires stdin/stdout/exit codes to `Tool(…).run`.
        .executableTarget(name: "healthetl", dependencies: ["HealthETL"]),

        // The deterministic generator of realistic exports (and the zip writer it needs).
        .target(
            name: "SampleExports", dependencies: ["CZlib"],
            path: "sample-exports/Sources/SampleExports"),
        .executableTarget(
            name: "generate-export", dependencies: ["SampleExports"],
            path: "sample-exports/Sources/generate-export"),

        // Tests mirror the layers: a test target per library target but HealthSchema (the store's tests cover it)
        // and one for the generator, each listing what its files import, on a support target with the fixtures,
        // the skip conditions, the process runner and the generated exports that suites share
        // (docs/architecture.md, "Tests", whose table scripts/check-architecture-doc.py checks against this file).
        .target(
            name: "HealthTestSupport",
            dependencies: [
                "HealthModel", "HealthReading", "HealthSQLite", "HealthSchema", "HealthStore", "SampleExports",
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "HealthModelTests", dependencies: ["HealthModel"]),
        .testTarget(name: "HealthJSONTests", dependencies: ["HealthJSON"]),
        .testTarget(
            name: "HealthReadingTests",
            dependencies: [
                "HealthTestSupport", "HealthModel", "HealthJSON", "HealthReading", "HealthSQLite", "HealthImport",
                "SampleExports",
            ]),
        .testTarget(
            name: "HealthStagesTests",
            dependencies: ["HealthTestSupport", "HealthModel", "HealthStages", "HealthSQLite", "HealthImport"]),
        .testTarget(name: "HealthRollupsTests", dependencies: ["HealthModel", "HealthRollups"]),
        .testTarget(name: "HealthSQLiteTests", dependencies: ["HealthSQLite"]),
        .testTarget(
            name: "HealthStoreTests",
            dependencies: [
                "HealthTestSupport", "HealthModel", "HealthRollups", "HealthSQLite", "HealthSchema", "HealthStore",
                "HealthStages", "HealthImport", "HealthCSV", "HealthPipelines", "SampleExports", "CZlib",
            ],
            exclude: ["baselines_reference.py"]),
        .testTarget(
            name: "HealthImportTests",
            dependencies: [
                "HealthTestSupport", "HealthModel", "HealthReading", "HealthStages", "HealthSQLite", "HealthImport",
                "SampleExports",
            ]),
        .testTarget(
            name: "HealthCSVTests",
            dependencies: [
                "HealthTestSupport", "HealthModel", "HealthSQLite", "HealthSchema", "HealthStore", "HealthImport",
                "HealthCSV", "SampleExports",
            ]),
        .testTarget(
            name: "HTMLReportTests",
            dependencies: ["HealthTestSupport", "HealthSQLite", "HealthImport", "HTMLReport"]),
        .testTarget(
            name: "HealthPostgresTests",
            dependencies: [
                "HealthTestSupport", "HealthModel", "HealthStages", "HealthSQLite", "HealthSchema", "HealthStore",
                "HealthImport", "HealthPostgres", "HealthPipelines", "HealthETL", "SampleExports",
            ]),
        .testTarget(
            name: "HealthDatasetteTests",
            dependencies: [
                "HealthTestSupport", "HealthSQLite", "HealthSchema", "HealthStore", "HealthImport", "HealthDatasette",
                "SampleExports",
            ]),
        .testTarget(
            name: "HealthPipelinesTests",
            dependencies: [
                "HealthTestSupport", "HealthModel", "HealthImport", "HealthPostgres", "HealthCSV", "HealthPipelines",
            ]),
        .testTarget(
            name: "HealthETLTests",
            dependencies: [
                "HealthTestSupport", "HealthModel", "HealthReading", "HealthSQLite", "HealthSchema", "HealthStore",
                "HealthImport", "HealthCSV", "HealthDatasette", "HealthETL", "SampleExports",
            ]),
        .testTarget(name: "HealthParquetTests", dependencies: ["HealthParquet"]),
        .testTarget(
            name: "HealthLakeTests",
            dependencies: [
                "HealthTestSupport", "HealthSQLite", "HealthSchema", "HealthLake", "HealthParquet", "SampleExports",
            ],
            exclude: ["lake_check.py"]),
        .testTarget(
            name: "HealthDeidentifyTests",
            dependencies: [
                "HealthTestSupport", "HealthSQLite", "HealthSchema", "HealthStore", "HealthImport", "HealthDeidentify",
                "HealthETL",
                "SampleExports",
            ]),
        // FHIR and IEEE 1752.1 output, checked by fhir.resources and jsonschema (scripts/test's fhir-venv).
        .testTarget(
            name: "HealthFHIRTests",
            dependencies: [
                "HealthTestSupport", "HealthSQLite", "HealthImport", "HealthFHIR", "HealthETL", "SampleExports",
            ],
            exclude: ["fhir_check.py", "ieee_check.py", "ieee1752-schemas"]),
        .testTarget(name: "SampleExportsTests", dependencies: ["HealthTestSupport", "SampleExports"]),
        // The MCP server's own tests: units, and the real `healthetl mcp` driven by the official Python SDK.
        .testTarget(
            name: "HealthMCPTests",
            dependencies: ["HealthTestSupport", "HealthMCP", "HealthJSON", "HealthSQLite", "SampleExports"],
            exclude: ["mcp_client.py"]),
        // The workout files read back by Garmin's FIT SDK, fitdecode, tcxreader, gpxpy and lxml (their schemas).
        .testTarget(
            name: "HealthWorkoutFilesTests",
            dependencies: ["HealthTestSupport", "HealthModel", "HealthWorkoutFiles"],
            exclude: ["workout_files_check.py", "Schemas"]),
    ]
)
