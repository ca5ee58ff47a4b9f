import HealthModel
import HealthSQLite
import HealthSchema

/// Where the row of a sync identifier is: a sample table, or the routes (stored as the table's name).
enum SyncedTable: Equatable {
    case samples(TrackedTable)
    case routes

    var name: String {
        switch self {
        case .samples(let table): table.name
        case .routes: "workout_routes"
        }
    }

    init?(name: String) {
        if name == Self.routes.name {
            self = .routes
        } else if let table = TrackedTable(name: name) {
            self = .samples(table)
        } else {
            return nil
        }
    }
}

/// A row that a sync identifier points to.
struct SyncedRow: Equatable {
    var table: SyncedTable
    var id: Int64
}

/// A record's `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion`.
struct SyncKey: Equatable {
    static let identifierKey = "HKMetadataKeySyncIdentifier"
    static let versionKey = "HKMetadataKeySyncVersion"

    var identifier: String
    /// 0 when the version is missing or not a number.
    var version: Int64

    /// The key in `metadata`, if it has a sync identifier.
    init?(_ metadata: [MetadataEntry]) {
        guard let identifier = metadata.firstValue(.syncIdentifier) else { return nil }
        self.init(identifier: identifier, version: metadata.firstValue(.syncVersion))
    }

    /// A sample's key (a `Sample` or a batch's row), if it has a sync identifier.
    init?<Fields: SampleFields>(_ sample: Fields) {
        guard let identifier = sample.metadataValue(.syncIdentifier) else { return nil }
        self.init(identifier: identifier, version: sample.metadataValue(.syncVersion))
    }

    /// `version`: the version's text, 0 when it is missing or not a number.
    private init(identifier: String, version: String?) {
        self.identifier = identifier
        self.version = version.flatMap { Int64($0) } ?? 0
    }

    init(identifier: String, version: Int64) {
        self.identifier = identifier
        self.version = version
    }
}

/// The rule among records of one app with the same sync identifier: only the highest version is kept, as
/// HealthKit does. Versions can arrive in any order: a lower one after a higher one is dropped; a higher one
/// replaces the row kept so far.
enum SyncDecision: Equatable {
    case keep
    /// A row with this version or a higher one is stored (where, and its version).
    case drop(SyncedRow, version: Int64)
    /// A lower version is stored (where): replace it.
    case replace(SyncedRow)

    /// The decision for a record of `version`, given what is stored for its identifier.
    init(stored: (row: SyncedRow, version: Int64)?, version: Int64) {
        guard let stored else {
            self = .keep
            return
        }
        self = stored.version >= version ? .drop(stored.row, version: stored.version) : .replace(stored.row)
    }
}

/// `sync_identifiers`: per app and sync identifier, the version stored and its row.
struct SyncVersions {
    private let lookup: SQLiteStatement
    private let store: TableInsert

    init(_ statements: SchemaStatements) {
        lookup = statements.syncLookup
        store = statements.syncStore
    }

    /// The row stored for `identifier` of `source`, and its version.
    func stored(source: String, identifier: String) throws -> (row: SyncedRow, version: Int64)? {
        let existing = try lookup.rows([.text(source), .text(identifier)]).first
        guard let existing, case .integer(let version) = existing[0], case .text(let name) = existing[1],
            let table = SyncedTable(name: name), case .integer(let id) = existing[2]
        else { return nil }
        return (SyncedRow(table: table, id: id), version)
    }

    func decision(source: String, key: SyncKey) throws -> SyncDecision {
        SyncDecision(stored: try stored(source: source, identifier: key.identifier), version: key.version)
    }

    func remember(source: String, key: SyncKey, row: SyncedRow) throws {
        try store.run([
            "source_name": .text(source),
            "sync_identifier": .text(key.identifier),
            "version": .integer(key.version),
            "row_table": .text(row.table.name),
            "row_id": .integer(row.id),
        ])
    }
}
