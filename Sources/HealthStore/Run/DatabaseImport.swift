import HealthModel

/// An import, as a storage back end that keeps its data elsewhere runs it: into a SQLite file of the back end's
/// choosing (PostgreSQL's working copy). `ImportJob` is the implementation; this protocol lets the back ends
/// depend on the store only, as peers of the CSV and report sinks, with `PipelinePlan` composing them.
package protocol DatabaseImport {
    var lockTimeoutSeconds: Double { get }
    /// Read the export even when it is the same zip as the last successful run's.
    var rescan: Bool { get }
    /// The fingerprint a run compares with the last successful run's; nil for inputs that are not zips.
    func expectedInputFingerprint() throws -> String?
    /// Runs the import into the database at `path`, naming it `label` in errors.
    func run(into path: String, label: String) throws -> ImportSummary
}
