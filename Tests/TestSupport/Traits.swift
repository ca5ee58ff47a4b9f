import Testing

extension Trait where Self == ConditionTrait {
    /// For the tests that run the `healthetl` executable itself (kill it, signal it, run two at once).
    package static var needsHealthetlExecutable: Self {
        .enabled(
            if: Condition.healthetlExecutableBuilt,
            "the healthetl executable is not built next to the tests (run swift build --build-tests)")
    }

    /// For the tests that need a PostgreSQL server (`HEALTHETL_TEST_POSTGRES`).
    package static var needsPostgres: Self {
        .enabled(
            if: Condition.postgres,
            "no PostgreSQL test server (HEALTHETL_TEST_POSTGRES is not set; ./scripts/test starts one)")
    }

    /// For the tests that run a real Datasette (installed from PyPI into .build/datasette-venv on first use;
    /// never in the fast loop, which installs nothing from PyPI).
    package static var needsDatasette: Self {
        .enabled(
            if: !Condition.fastLoop && Condition.datasette,
            "no Datasette: pip could not install it into .build/datasette-venv, or the fast loop (scripts/test --fast)")
    }
}

extension Tag {
    /// A test that needs a program or a server beyond the build (LibreOffice, a browser, PostgreSQL, Datasette,
    /// the Python readers), or runs for long (a child killed at many moments): `scripts/test --fast` leaves it out.
    @Tag package static var fullSuite: Self
}

/// Leaves out of the fast loop (`scripts/test --fast`, which sets `HEALTHETL_TEST_FAST=1`) every test tagged
/// `.fullSuite`, reported as cancelled with the reason. Swift 6.3's `swift test` does not filter by tag
/// (`--skip tag:…` is read as a name pattern), so the selection is made here, from the tags themselves: a suite
/// or test declares what it needs where it is written, and no script lists names.
package struct FastLoopSelection: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if Condition.fastLoop, test.tags.contains(.fullSuite) {
            try Test.cancel("tagged fullSuite: left out of scripts/test --fast")
        }
        try await function()
    }
}

extension Trait where Self == FastLoopSelection {
    /// Put beside `.tags(.fullSuite)` on the suite or test.
    package static var fastLoopSelection: Self { FastLoopSelection() }
}
