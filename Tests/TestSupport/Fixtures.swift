import Foundation

/// Paths of the repository, of the shared fixtures (absent in a user's fresh clone), of the `healthetl`
/// executable built beside the tests, and of what the integration tests need from the machine.
package enum Fixtures {
    /// The checkout: `Tests/Fixtures/`, `sample-exports/`, `pipelines/`, `docs/` and `scripts/` are found from here.
    package static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    package static let sharedRoot = (repositoryRoot as NSString).appendingPathComponent("../shared")

    /// A file under ../shared/fixtures/real, or nil when ../shared is not there.
    package static func real(_ relative: String) -> String? {
        let path = (sharedRoot as NSString).appendingPathComponent("fixtures/real/" + relative)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    package static var sharedIsPresent: Bool { FileManager.default.fileExists(atPath: sharedRoot) }

    /// The first of `names` found on PATH (or given as a path).
    package static func executable(_ names: String...) -> String? {
        for name in names {
            if let path = ProcessRunner.find(name) { return path }
        }
        return nil
    }

    /// The `healthetl` executable built next to the test bundle (`swift build --build-tests` builds both);
    /// nil when it is not there.
    package static var healthetl: String? {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let path = bundle.appendingPathComponent("healthetl").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// The PostgreSQL server of the tests: `./scripts/test` starts a throwaway cluster on loopback and names it
    /// in `HEALTHETL_TEST_POSTGRES`; nil without it (a plain `swift test`).
    package static let postgresURL: String? = {
        guard let url = ProcessInfo.processInfo.environment["HEALTHETL_TEST_POSTGRES"], !url.isEmpty else {
            return nil
        }
        return url
    }()

    /// The venv of the Datasette tests, under .build/ so that it is made once per build folder.
    package static let datasetteVenv = repositoryRoot + "/.build/datasette-venv"

    /// Datasette from PyPI, installed into `datasetteVenv` on first use (once per test process, whichever
    /// test asks first); nil, with the reason on standard error, when python3 or pip cannot install it.
    package static let datasette: String? = {
        let datasette = datasetteVenv + "/bin/datasette"
        if FileManager.default.isExecutableFile(atPath: datasette) { return datasette }
        var log = ""
        do {
            let venv = try ProcessRunner.run("python3", ["-m", "venv", datasetteVenv], timeout: 300)
            log += venv.output + venv.error
            if venv.status == 0 {
                let pip = try ProcessRunner.run(
                    datasetteVenv + "/bin/python3", ["-m", "pip", "install", "-q", "datasette"], timeout: 900)
                log += pip.output + pip.error
                if pip.status == 0, FileManager.default.isExecutableFile(atPath: datasette) { return datasette }
            }
        } catch {
            FileHandle.standardError.write(Data("cannot run python3 to install Datasette: \(error)\n".utf8))
            return nil
        }
        let reason = log.split(separator: "\n").last ?? ""
        FileHandle.standardError.write(Data("pip could not install Datasette into \(datasetteVenv) (\(reason))\n".utf8))
        try? FileManager.default.removeItem(atPath: datasetteVenv)
        return nil
    }()
}

/// Whether what a test needs beyond the build is here: each is the condition of a Swift Testing trait
/// (`@Test(.enabled(if: Condition.python3, "python3 is not on PATH"))`), so a test without it is reported as
/// skipped, with the reason, instead of passing. Evaluated once, when the first test that names one is planned.
package enum Condition {
    package static let python3 = Fixtures.executable("python3") != nil
    package static let bash = Fixtures.executable("bash") != nil
    package static let groff = Fixtures.executable("groff") != nil
    /// LibreOffice, to open the CSV files as a spreadsheet (Debian: libreoffice-calc-nogui).
    package static let libreOffice = Fixtures.executable("soffice", "libreoffice") != nil
    /// A headless Chromium, to load the HTML report (Debian: chromium-headless-shell).
    package static let chromium = Fixtures.executable("chromium-headless-shell", "chromium", "chromium-browser") != nil
    package static let healthetlExecutableBuilt = Fixtures.healthetl != nil
    /// A PostgreSQL server named by `HEALTHETL_TEST_POSTGRES` (scripts/test starts one).
    package static let postgres = Fixtures.postgresURL != nil
    /// Installs Datasette into .build/datasette-venv the first time it is asked (pip, from PyPI).
    package static var datasette: Bool { Fixtures.datasette != nil }
    /// ../shared beside the repository (the real exports, the reference tables).
    package static var sharedFixtures: Bool { Fixtures.sharedIsPresent }
    /// The quick loop of `scripts/test --fast`: tests tagged `.fullSuite` are left out (`FastLoopSelection`).
    package static let fastLoop = ProcessInfo.processInfo.environment["HEALTHETL_TEST_FAST"] == "1"
}
