import Foundation

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// The writers over a `StoreFixture`, wired as `SQLiteSink` wires them for a first import of an export (no
/// earlier rows, so the re-import session is inactive), for tests that call one writer directly.
final class WriterRig {
    let store: StoreFixture
    /// What the writers report, as the front (`SQLiteSink`) collects it for an item: tests pass
    /// `into: &rig.report`.
    var report = WriteReport()
    private let appliedTally = RunTally()
    let statements: SchemaStatements
    let common: CommonRows
    let session: ReimportSession
    let feed: FeedMerge
    let samples: SampleWriter

    init(
        _ store: StoreFixture? = nil, dropsDuplicates: Bool = true, keepsHighestSyncVersion: Bool = true,
        timeZone: TimeZone = TimeZone(identifier: "Europe/Berlin")!
    ) throws {
        let store = try store ?? StoreFixture()
        self.store = store
        let connection = store.connection
        statements = try SchemaStatements(connection)
        common = try CommonRows(connection, hadData: false, timeZone: timeZone)
        session = try ReimportSession(connection, lastIDs: nil, runID: 1)
        feed = try FeedMerge(connection, isFeed: false, session: session)
        let policy = SamplePolicy(
            dropsExactDuplicates: dropsDuplicates, keepsHighestSyncVersion: keepsHighestSyncVersion, isFeed: false,
            hasEarlierRows: false)
        samples = try SampleWriter(
            connection, policy: policy, lastIDs: LastRowIDs(), hadData: false, statements: statements,
            common: common, session: session, feed: feed)
    }

    var connection: SQLiteConnection { store.connection }

    /// The run's tally with what was reported so far applied, as the front applies it (`SQLiteSink.apply`);
    /// reading it applies and empties `report`.
    var tally: RunTally {
        SQLiteSink.apply(report, to: appliedTally, session: session)
        report = WriteReport()
        return appliedTally
    }

    func integer(_ sql: String) throws -> Int64? { try store.integer(sql) }
    func text(_ sql: String) throws -> String? { try store.text(sql) }

    /// The rows of `sql`, each as text (NULL as "nil"), for comparing whole rows at once.
    func rows(_ sql: String) throws -> [[String]] {
        try connection.query(sql).map { row in
            row.map { value in
                switch value {
                case .null: "nil"
                case .integer(let number): String(number)
                case .real(let number): String(number)
                case .text(let text): text
                case .blob(let bytes): "blob \(bytes.count)"
                }
            }
        }
    }

    static let phone = SampleSource(id: 0, name: "Phone", version: "17.2", device: nil)
    static let watch = SampleSource(id: 1, name: "Watch", version: nil, device: nil)

    static func instant(_ text: String) -> Timestamp? { Timestamp.parse(text) }
}
