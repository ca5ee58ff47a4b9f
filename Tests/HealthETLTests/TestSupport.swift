import Foundation
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite
@testable import HealthStore

/// A ByteStream over bytes in memory, handing them out in pieces of at most `pieceSize`.
final class MemoryStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0
    private let pieceSize: Int
    var expectedSize: UInt64? { UInt64(bytes.count) }

    init(_ bytes: [UInt8], pieceSize: Int = .max) {
        self.bytes = bytes
        self.pieceSize = pieceSize
    }

    convenience init(_ text: String, pieceSize: Int = .max) { self.init(Array(text.utf8), pieceSize: pieceSize) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset, pieceSize)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// A fresh directory under the system's temporary folder, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String = "healthetl-tests") {
        path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func write(_ name: String, _ text: String) -> String {
        let target = file(name)
        FileManager.default.createFile(atPath: target, contents: Data(text.utf8))
        return target
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Paths of the repository and of the shared fixtures (absent in a user's fresh clone).
enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static let sharedRoot = (repositoryRoot as NSString).appendingPathComponent("../shared")

    /// A file under ../shared/fixtures/real, or nil when ../shared is not there.
    static func real(_ relative: String) -> String? {
        let path = (sharedRoot as NSString).appendingPathComponent("fixtures/real/" + relative)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static var sharedIsPresent: Bool { FileManager.default.fileExists(atPath: sharedRoot) }
}

/// Reads every item of an export into memory (tests only: small inputs).
func readAllItems(_ path: String, chunkSize: Int = XMLDocumentReader.defaultChunkSize) throws -> (
    items: [ExportItem], reader: ExportReader
) {
    let reader = try ExportReader(container: ExportContainer(path: path), chunkSize: chunkSize)
    var items: [ExportItem] = []
    while let item = try reader.next() { items.append(item) }
    return (items, reader)
}

extension Array where Element == ExportItem {
    var samples: [Sample] { compactMap { if case .sample(let s) = $0 { s } else { nil } } }
    var workouts: [Workout] { compactMap { if case .workout(let w) = $0 { w } else { nil } } }
    var correlations: [Correlation] { compactMap { if case .correlation(let c) = $0 { c } else { nil } } }
}

/// A minimal export document around `body`.
func exportXML(_ body: String, doctype: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    \(doctype)<HealthData locale="en_US">
     <ExportDate value="2024-03-01 10:00:00 +0100"/>
    \(body)
    </HealthData>

    """
}

/// Every row of every data table (not the run history), for "the database is as it was" checks.
func dataContent(of database: String) throws -> [String: [[SQLiteValue]]] {
    let db = try SQLiteConnection(path: database, create: false)
    var content: [String: [[SQLiteValue]]] = [:]
    for table in Schema.tables where !["import_runs", "import_warnings", "import_run_changes"].contains(table.name) {
        // Ordered by every column: the same rows in another insertion order are the same content.
        let order = (1...table.columns.count).map(String.init).joined(separator: ", ")
        content[table.name] = try db.query("SELECT * FROM \"\(table.name)\" ORDER BY \(order)")
    }
    return content
}
