import Foundation

/// A handshake for the tests that must act at a known moment of a run — a reader while the run holds its
/// transaction, a SIGKILL just before the commit — instead of sleeping and hoping the moment came. With
/// `HEALTHETL_TEST_HANDSHAKE` naming a folder, the run creates `<folder>/<point>.reached` at the point and waits
/// until `<folder>/<point>.go` exists (at most a minute, then it goes on). Unset, a run asks the environment once
/// per point and carries on: nothing else depends on it, and a user gains nothing by setting it.
enum RunHandshake {
    enum Point: String {
        /// Every row written, the transaction still open (an existing database: readers see the state before).
        case beforeCommit = "before-commit"
    }

    static func pause(at point: Point) {
        guard let folder = ProcessInfo.processInfo.environment["HEALTHETL_TEST_HANDSHAKE"], !folder.isEmpty else {
            return
        }
        let base = folder + "/" + point.rawValue
        _ = FileManager.default.createFile(atPath: base + ".reached", contents: nil)
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: base + ".go"), Date() < deadline { usleep(10_000) }
    }
}
