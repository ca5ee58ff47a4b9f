import Foundation
import Glibc
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `SQLiteTarget`: a new database is built beside its path and moved into place only by the commit; a rollback
/// leaves nothing; an existing one is written in WAL mode under a lock a second run cannot take.
struct SQLiteTargetTests {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func aNewDatabaseAppearsOnlyWhenCommitted() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("new.sqlite")
        let target = try SQLiteTarget(path: path, lockTimeoutMilliseconds: 0)
        #expect(target.isNew)
        #expect(target.workingPath == path + ".healthetl-\(getpid()).tmp")
        #expect(Self.exists(target.workingPath))
        #expect(!Self.exists(path))
        var status = stat()
        #expect(stat(target.workingPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)  // owner-only from its first byte
        try target.connection.execute("CREATE TABLE t (x)")
        #expect(try target.commit() == 0)
        target.close()
        #expect(Self.exists(path))
        #expect(!Self.exists(target.workingPath))
        let reopened = try SQLiteConnection(path: path, create: false)
        #expect(try reopened.scalar("SELECT count(*) FROM sqlite_master WHERE name = 't'") == .integer(1))
    }

    @Test func aRolledBackNewDatabaseLeavesNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("new.sqlite")
        let target = try SQLiteTarget(path: path, lockTimeoutMilliseconds: 0)
        try target.connection.execute("CREATE TABLE t (x)")
        target.rollback()
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.filter { $0.hasPrefix("new.sqlite") && !$0.hasSuffix(".lock") } == [])
    }

    @Test func anExistingDatabaseIsWrittenInWALModeAndLocked() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        try store.connection.execute("ROLLBACK")
        let target = try SQLiteTarget(path: store.path, lockTimeoutMilliseconds: 0)
        defer { target.rollback() }
        #expect(!target.isNew)
        #expect(target.workingPath == store.path)
        #expect(try target.connection.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(throws: ImportError.self) { try SQLiteTarget(path: store.path, lockTimeoutMilliseconds: 0) }
    }

    @Test func aFolderThatDoesNotExistIsRefused() {
        #expect(throws: ImportError.self) {
            try SQLiteTarget(path: "/nonexistent-healthetl-folder/h.sqlite", lockTimeoutMilliseconds: 0)
        }
    }

    /// Files of a process that no longer exists go, with what SQLite made beside them; a running process's and
    /// other names stay.
    @Test func staleTemporaryFilesOfDeadProcessesAreRemoved() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        let dead = Int32.max - 1  // above any pid the kernel gives out
        let names = [
            "h.sqlite.healthetl-\(dead).tmp", "h.sqlite.healthetl-\(dead).tmp-wal",
            "h.sqlite.healthetl-\(getpid()).tmp", "h.sqlite.healthetl-\(dead).tmp-other", "h.sqlite",
        ]
        for name in names { _ = directory.write(name, "x") }
        SQLiteTarget.removeStaleTemporaryFiles(of: path)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == names.suffix(3).sorted())
    }

    @Test func onlyHealthETLDatabasesOrEmptyFilesAreTakenOver() throws {
        let empty = try StoreFixture()
        #expect(try SQLiteTarget.isHealthETLDatabaseOrEmpty(empty.connection))
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let bare = try SQLiteConnection(path: directory.file("bare.sqlite"))
        #expect(try SQLiteTarget.isHealthETLDatabaseOrEmpty(bare))
        try bare.execute("CREATE TABLE notes (text TEXT)")
        #expect(try !SQLiteTarget.isHealthETLDatabaseOrEmpty(bare))
    }
}
