import Foundation

/// A fresh directory under the system's temporary folder, owner-only (what the tests write is health data, real
/// or generated), removed by `remove()`.
package struct TemporaryDirectory: Sendable {
    package let path: String

    package init(_ label: String = "healthetl-tests") {
        path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    package func write(_ name: String, _ text: String) -> String {
        let target = file(name)
        let written = FileManager.default.createFile(atPath: target, contents: Data(text.utf8))
        precondition(written, "cannot write \(target)")
        return target
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}

extension TemporaryDirectory {
    /// A directory for what a test process makes once and shares (generated exports, imported databases):
    /// removed when the process exits.
    package static func removedAtExit(_ label: String) -> TemporaryDirectory {
        let directory = TemporaryDirectory(label)
        FoldersRemovedAtExit.shared.add(directory.path)
        return directory
    }
}

private final class FoldersRemovedAtExit: @unchecked Sendable {
    static let shared: FoldersRemovedAtExit = {
        atexit { FoldersRemovedAtExit.shared.removeAll() }
        return FoldersRemovedAtExit()
    }()

    private let lock = NSLock()
    private var paths: [String] = []

    func add(_ path: String) { lock.withLock { paths.append(path) } }

    func removeAll() {
        for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
