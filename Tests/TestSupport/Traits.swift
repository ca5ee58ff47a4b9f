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

    /// For the tests that run a real Datasette (installed from PyPI into .build/datasette-venv on first use).
    package static var needsDatasette: Self {
        .enabled(if: Condition.datasette, "pip could not install Datasette into .build/datasette-venv")
    }
}
