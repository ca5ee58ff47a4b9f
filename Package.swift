// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "healthetl",
    products: [
        .library(name: "HealthETL", targets: ["HealthETL"]),
        .executable(name: "healthetl", targets: ["healthetl"]),
        .executable(name: "generate-export", targets: ["generate-export"]),
    ],
    targets: [
        // C libraries from Debian packages (see README: libxml2-dev, libsqlite3-dev, zlib1g-dev, libpq-dev).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libpq, for the PostgreSQL sink (many people's exports in one server database).
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // The product: reader, model, stages, sinks and the CLI logic.
        .target(
            name: "HealthETL", dependencies: ["CLibXML2", "CSQLite", "CZlib", "CPostgres"],
            swiftSettings: [
                // Dynamic exclusivity checks cost ~5% of an import on the per-attribute hot path; debug builds
                // (and so the test suite) keep them.
                .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
            ]),
        // The executable only wires stdin/stdout/exit codes to HealthETL.runTool.
        .executableTarget(name: "healthetl", dependencies: ["HealthETL"]),

        // The deterministic generator of realistic exports (and the zip writer it needs).
        .target(
            name: "SampleExports", dependencies: ["CZlib"],
            path: "sample-exports/Sources/SampleExports"),
        .executableTarget(
            name: "generate-export", dependencies: ["SampleExports"],
            path: "sample-exports/Sources/generate-export"),

        .testTarget(name: "HealthETLTests", dependencies: ["HealthETL", "SampleExports", "CZlib"]),
    ]
)
