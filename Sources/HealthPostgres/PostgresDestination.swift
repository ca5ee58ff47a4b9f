import Foundation
import Glibc
import HealthModel
import HealthSchema
import HealthStore

/// Where a run's rows go in PostgreSQL: a server, and the person whose export it is.
public struct PostgresDestination: Sendable, Equatable {
    /// A `postgresql://` URL or `key=value` string; empty for libpq's `PG*` environment variables.
    public var connection: String
    public var person: String
    /// A folder to keep the person's working copy in between runs (`--working-copy`); nil: none is kept.
    public var workingCopies: String?

    public init(connection: String, person: String, workingCopies: String? = nil) {
        self.connection = connection
        self.person = person
        self.workingCopies = workingCopies
    }

    /// Names the person in messages without the connection string, which may hold a password.
    package var displayName: String { "PostgreSQL person \(person)" }

    /// A person id is free text, but printed in messages and logs: no control characters, not blank.
    package static func checkPerson(_ person: String) throws(OptionValueError) {
        guard !person.trimmingCharacters(in: .whitespaces).isEmpty, person.utf8.count <= 200,
            !person.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw OptionValueError(
                message: "The value '\(person)' is invalid for '--person <id>' (1–200 printable characters)")
        }
    }
}

/// A private folder for the working copy (mode 0700, under `TMPDIR`), removed when the run ends; those of
/// killed runs are removed by the next run.
struct PostgresWorkspace {
    let directory: String
    var databasePath: String { directory + "/working.sqlite" }

    private static let prefix = "healthetl-postgres-"

    init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        Self.removeStale(in: base)
        var template = Array("\(base)/\(Self.prefix)\(getpid())-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ImportError(
                .output, "cannot create a working folder in \(base): \(SystemError.last)",
                hint: "set TMPDIR to a writable folder with room for a copy of the person's data")
        }
        directory = String(cString: made)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// Folders whose process is gone were left by a killed run.
    private static func removeStale(in base: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pidText), ProcessLiveness.processIsGone(pid) else { continue }
            try? FileManager.default.removeItem(atPath: base + "/" + name)
        }
    }
}
