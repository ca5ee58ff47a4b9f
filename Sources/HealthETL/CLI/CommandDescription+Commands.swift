/// The descriptions of the built-in commands (registered with their code in `Tool.commands`).
extension CommandDescription {
    static let importCommand = CommandDescription(
        name: "import",
        abstract: "Import an export into a SQLite database (or CSV files, or PostgreSQL), or update it.",
        usage: [
            "import <export> --db <path> [--csv <folder> [--excel]] [--timezone <zone>] [--quiet] [--json]",
            "import <export> --csv <folder> [--excel]",
            "import <export> --person <id> [--postgres <url>] [--working-copy <folder>]",
            "import <export> --db <path> --parquet <lake> [--person <id>]",
        ],
        arguments: [Argument("<export>", help: "export.zip, the unzipped apple_health_export folder, or export.xml")],
        options: [
            Option(
                "--db", value: "<path>",
                help: "The SQLite database to write: created if missing, else updated with only what changed (new, "
                    + "replaced and deleted samples).", valueIsFile: true),
            Option(
                "--person", value: "<id>",
                help: "The person whose export it is (a study's participant id). With --parquet, it names the "
                    + "person's partition of the lake (<lake>/<table>/person=<id>/) and PostgreSQL is used only "
                    + "with --postgres; otherwise it imports into PostgreSQL (--postgres, else the PG* environment "
                    + "variables), each person's rows kept apart and updated like a database of their own."),
            .postgres,
            Option(
                "--working-copy", value: "<folder>",
                help: "Keep the person's working copy here between runs (owner-only): the next run on this machine "
                    + "skips copying the person's rows out of the server.", valueIsFile: true),
            Option(
                "--csv", value: "<folder>",
                help: "Also (or, without --db, only) write CSV files: one per table, and the daily rollups daily.csv, "
                    + "daily_long.csv, daily_units.csv.", valueIsFile: true),
            .excel,
            .parquet,
            Option(
                "--timezone", value: "<zone>",
                help: "IANA zone deciding each sample's local_date (default: the database's zone, else this "
                    + "machine's). A sample's own HKTimeZone wins."),
            Option(
                "--state-of-mind", value: "<file>",
                help: "A Health Auto Export JSON file with State of Mind entries to import too.", valueIsFile: true),
            Option("--keep-duplicates", help: "Store exact duplicates and superseded sync versions too (dedup off)."),
            Option("--raw-units", help: "Keep values in the units they were exported in (unit stage off)."),
            Option("--force", help: "Import an export older than the one the database was last updated from."),
            Option("--rescan", help: "Read the export even if it is the same file as the last import."),
            .wait, .quiet, .json,
        ],
        examples: [
            "healthetl import ~/Downloads/export.zip --db health.sqlite",
            "healthetl import export.zip --db health.sqlite --quiet --wait 600",
            "healthetl import export.zip --csv out/ --excel",
            "healthetl import export.zip --person P123 --postgres postgresql://etl@db.example.org/study",
            "healthetl import export.zip --db p123.sqlite --person P123 --parquet lake/",
        ])

    static let exportCommand = CommandDescription(
        name: "export",
        abstract: "Write an existing database as CSV files, or as a Parquet lake (one folder per table and view).",
        usage: [
            "export --db <path> --csv <folder> [--excel] [--no-tables] [--no-daily]",
            "export --db <path> --parquet <lake> [--person <id>]",
        ],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to read (never changed).", valueIsFile: true),
            Option(
                "--csv", value: "<folder>",
                help: "The folder to write: one CSV per table, daily.csv, daily_long.csv, daily_units.csv.",
                valueIsFile: true),
            .excel,
            Option("--no-tables", help: "Leave out the one-file-per-table CSVs."),
            Option("--no-daily", help: "Leave out daily.csv, daily_long.csv and daily_units.csv."),
            .parquet,
            Option(
                "--person", value: "<id>",
                help: "With --parquet: publish into the person's partition, <lake>/<table>/person=<id>/, replacing "
                    + "only that person's files (docs/lake.md)."),
            .quiet, .json,
        ],
        examples: [
            "healthetl export --db health.sqlite --csv out/ --excel",
            "healthetl export --db p123.sqlite --parquet lake/ --person P123",
        ])

    static let runCommand = CommandDescription(
        name: "run", abstract: "Run a pipeline file: input, filters, stages and sinks in one JSON definition.",
        usage: ["run <pipeline.json> [--dry-run] [--quiet] [--json]"],
        arguments: [
            Argument("<pipeline.json>", help: "The pipeline definition; checked completely before anything runs.")
        ],
        options: [
            Option("--dry-run", help: "Print what the pipeline would do, without reading or writing."), .quiet, .json,
        ],
        examples: [
            "healthetl run pipelines/nightly-incremental.json --quiet",
            "healthetl run --dry-run pipelines/research-subset.json",
        ])

    static let statusCommand = CommandDescription(
        name: "status", abstract: "Show a database's totals, its last runs and the anchors per type.",
        usage: ["status --db <path> [--json]", "status --person <id> [--postgres <url>] [--json]"],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to report on.", valueIsFile: true),
            Option("--person", value: "<id>", help: "Report on this person's data on the PostgreSQL server."),
            .postgres,
            Option("--json", help: "Print the status as JSON."),
        ],
        examples: ["healthetl status --db health.sqlite", "healthetl status --person P123 --json"])

    static let setTimeZoneCommand = CommandDescription(
        name: "set-timezone",
        abstract: "Recompute every local_date and the rollups in another time zone, without re-importing.",
        usage: ["set-timezone <zone> --db <path> [--wait <seconds>] [--quiet]"],
        arguments: [Argument("<zone>", isFile: false, help: "An IANA time zone name, such as Europe/Berlin.")],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to change.", valueIsFile: true),
            .wait,
            Option("--quiet", help: "Print nothing on success."),
        ],
        examples: ["healthetl set-timezone Europe/Berlin --db health.sqlite"])

    static let schemaCommand = CommandDescription(
        name: "schema", abstract: "Print the database schema's documentation (docs/schema.md), or PostgreSQL's DDL.",
        usage: ["schema [--postgres]"],
        options: [
            Option(
                "--postgres",
                help: "Print the CREATE statements of the PostgreSQL schema instead (for a DBA who creates it before "
                    + "granting importers less than CREATE).")
        ],
        examples: ["healthetl schema > docs/schema.md"])

    static let helpCommand = CommandDescription(
        name: "help", abstract: "Show the help of the tool or of one command.",
        usage: ["help [<command>]"],
        arguments: [Argument("<command>", isFile: false, help: "The command to explain.")],
        options: [
            Option("--man", help: "Print the manual page (roff) instead; scripts/install installs it."),
            Option("--bash-completion", help: "Print the bash completion script instead."),
        ],
        examples: ["healthetl help import"])
}
