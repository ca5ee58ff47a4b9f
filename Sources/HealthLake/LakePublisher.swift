import Foundation
import Glibc
import HealthModel
import HealthSQLite
import HealthSchema

/// What a publish did.
package struct LakeReport: Sendable, Encodable {
    package var folder: String
    package var person: String?
    package var generation: String
    /// The relations written, with their rows and bytes.
    package var written: [LakeTableReport] = []
    /// The relations whose files already held this generation (an unchanged database): not rewritten.
    package var unchanged: [String] = []
}

/// `healthetl export --parquet`: the lake of one database, published so that readers never see half of it.
///
/// Every relation's file is written into a hidden staging folder beside the lake (same file system), synced,
/// then its folder (`lake/<relation>` or `lake/<relation>/person=<id>`) is swapped with the staged one in one
/// rename. A kill at any moment leaves each relation's previous file or its new one, never both and never a
/// partial file. Across relations a reader can see some new and some previous files while a publish is under
/// way; the generation in every file's name (and the manifest `_healthetl/<key>.json`, written last) tell them
/// apart. Publishes of different persons touch different folders and run concurrently; publishes of one person
/// wait for each other (a lock file).
package enum LakePublisher {
    package static func publish(databasePath: String, to root: String, person: String?) throws -> LakeReport {
        let layout = LakeLayout(root: root, person: person)
        try prepareRoot(layout)
        let lock = try LakeLock(path: layout.lockPath)
        defer { lock.release() }
        removeLeftoverStaging(layout)

        let connection = try StoredDatabase.openForReading(databasePath, readOnly: true)
        // One read transaction: every relation from the same state of the database, whatever an import does.
        try StoredDatabase.read(databasePath) { try connection.execute("BEGIN") }
        defer { try? connection.execute("COMMIT") }
        let relations = LakeRelation.all
        let (generation, highestIDs) = try StoredDatabase.read(databasePath) {
            try LakeFingerprint.compute(connection, relations: relations)
        }
        var report = LakeReport(folder: layout.root, person: person, generation: generation)
        let fileName = LakeLayout.fileName(generation: generation)

        var pending: [LakeRelation] = []
        for relation in relations {
            let current = try checkLeaf(layout, relation.name)
            if current == [fileName] { report.unchanged.append(relation.name) } else { pending.append(relation) }
        }
        if !pending.isEmpty {
            let exportDate = try StoredDatabase.read(databasePath) {
                try connection.scalar("SELECT max(export_date) FROM import_runs WHERE outcome = 'ok'").text
            }
            let staging = layout.root + "/" + layout.stagingPrefix + String(getpid())
            defer { try? FileManager.default.removeItem(atPath: staging) }
            try makeFolder(staging)
            for relation in pending { try makeFolder(staging + "/" + relation.name) }
            var metadata: [(key: String, value: String)] = [
                ("healthetl.version", HealthETLVersion.current), ("healthetl.schema_version", "\(Schema.userVersion)"),
                ("healthetl.export_date", exportDate ?? ""), ("healthetl.generation", generation),
            ]
            if let person { metadata.append(("healthetl.person", person)) }
            // The largest first, so that neither thread is left with one large relation at the end.
            func size(_ relation: LakeRelation) -> Int64 { LakeFingerprint.size(of: relation.name, in: highestIDs) }
            let work = ParallelWrite(
                relations: pending.sorted { size($0) > size($1) }, databasePath: databasePath, staging: staging,
                fileName: fileName, metadata: metadata, generation: generation)
            report.written = try work.run(firstConnection: connection)
            // Everything is on disk before the first swap, so the swaps follow each other without writing; the
            // folders that hold them are synced after the last one, before the manifest says it is done.
            if person != nil { for relation in pending { try makeFolder(layout.tableFolder(relation.name)) } }
            for relation in pending {
                try FolderSwap.replace(layout.leaf(relation.name), with: staging + "/" + relation.name)
            }
            let parents = person == nil ? [layout.root] : pending.map { layout.tableFolder($0.name) }
            for parent in parents { try FolderSwap.syncFolder(parent) }
        }
        try writeManifest(layout, report: report, relations: relations)
        return report
    }

    /// The lake folder exists (made owner-only when new), is a folder and can be written.
    static func prepareRoot(_ layout: LakeLayout) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: layout.root, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw ImportError(.output, "the lake path is a file, not a folder", file: layout.root)
            }
        } else {
            try makeFolder(layout.root, intermediate: true)
        }
        guard access(layout.root, W_OK | X_OK) == 0 else {
            throw ImportError(.output, "the lake folder is not writable: \(SystemError.last)", file: layout.root)
        }
        try makeFolder(layout.controlFolder)
    }

    /// The files in a relation's folder for this publish, after checking it holds nothing healthetl did not
    /// write (a foreign file would be swapped away with the folder, or mixed into every query).
    static func checkLeaf(_ layout: LakeLayout, _ relation: String) throws -> [String] {
        let manager = FileManager.default
        let table = layout.tableFolder(relation)
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: table, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else {
            throw ImportError(.output, "a file where the lake keeps a folder; move it away", file: table)
        }
        let tableEntries = try listFolder(table)
        if layout.person != nil {
            if let stray = tableEntries.first(where: { !$0.hasPrefix("person=") }) {
                throw ImportError(
                    .output, "a file healthetl did not write in a partitioned table's folder; move it away",
                    file: table + "/" + stray,
                    hint: LakeLayout.isDataFile(stray) ? "the lake holds an export without --person" : nil)
            }
        }
        let leaf = layout.leaf(relation)
        guard manager.fileExists(atPath: leaf, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else {
            throw ImportError(.output, "a file where the lake keeps a person's folder; move it away", file: leaf)
        }
        let entries = layout.person == nil ? tableEntries : try listFolder(leaf)
        if let stray = entries.first(where: { !LakeLayout.isDataFile($0) }) {
            throw ImportError(
                .output, "a file healthetl did not write in the lake; move it away", file: leaf + "/" + stray,
                hint: stray.hasPrefix("person=") ? "the lake holds persons' partitions: use --person" : nil)
        }
        return entries.sorted()
    }

    static func listFolder(_ path: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw ImportError(.output, "cannot read the folder: \(SystemError.last)", file: path)
        }
    }

    /// Staging folders of this key left by a publish that was killed (the lock says none is running).
    static func removeLeftoverStaging(_ layout: LakeLayout) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: layout.root) else { return }
        for entry in entries where entry.hasPrefix(layout.stagingPrefix) {
            try? FileManager.default.removeItem(atPath: layout.root + "/" + entry)
        }
    }

    static func makeFolder(_ path: String, intermediate: Bool = false) throws {
        if intermediate {
            do {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                return
            } catch {
                throw ImportError(.output, "cannot create the folder: \(SystemError.last)", file: path)
            }
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw ImportError(.output, "cannot create the folder: \(SystemError.last)", file: path)
        }
    }

    /// `_healthetl/<key>.json`: the generation every relation's file now holds, written last.
    static func writeManifest(_ layout: LakeLayout, report: LakeReport, relations: [LakeRelation]) throws {
        var object: [String: Any] = [
            "generation": report.generation, "healthetl_version": HealthETLVersion.current,
            "schema_version": Schema.userVersion,
            "files": Dictionary(
                uniqueKeysWithValues: relations.map {
                    (
                        $0.name,
                        String(layout.leaf($0.name).dropFirst(layout.root.count + 1)) + "/"
                            + LakeLayout.fileName(generation: report.generation)
                    )
                }),
        ]
        if let person = layout.person { object["person"] = person }
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        try AtomicFile.write(Array(data) + [0x0A], to: layout.manifestPath)
        try FolderSwap.syncFolder(layout.controlFolder)
    }
}

/// An exclusive lock on a file (`flock`), held while one key's publish runs; released on exit, even by kill -9.
final class LakeLock {
    private var descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ImportError(.output, "cannot open the lock: \(SystemError.last)", file: path)
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw ImportError(.output, "cannot lock: \(SystemError.last)", file: path)
            }
        }
    }

    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

/// The relations written by two threads (the machine's cores, and at most two writers' row groups in memory),
/// each with a connection of its own. The second connection reads the same state as the first only if its
/// fingerprint is the same generation (an import may have committed in between); otherwise the first thread
/// writes everything.
final class ParallelWrite: Sendable {
    let relations: [LakeRelation]
    let databasePath: String
    let staging: String
    let fileName: String
    let metadata: [(key: String, value: String)]
    let generation: String
    /// The relations not yet taken, by index; cancelled at the first failure, so both threads stop.
    private let pending = BoundedChannel<Int>(capacity: nil)
    private let written = BoundedChannel<(index: Int, report: LakeTableReport)>(capacity: nil)

    init(
        relations: [LakeRelation], databasePath: String, staging: String, fileName: String,
        metadata: [(key: String, value: String)], generation: String
    ) {
        self.relations = relations
        self.databasePath = databasePath
        self.staging = staging
        self.fileName = fileName
        self.metadata = metadata
        self.generation = generation
        for index in relations.indices { pending.send(index) }
        pending.finish()
    }

    /// The reports of every relation, in `relations`' order; the first failure of either thread is thrown.
    func run(firstConnection: SQLiteConnection) throws -> [LakeTableReport] {
        let helper = WorkerThread(name: "lake writer") { [self] _ in
            guard let connection = try? secondConnection() else { return }
            try work(connection)
            try? connection.execute("COMMIT")
        }
        var failure: Error?
        do { try work(firstConnection) } catch { failure = error }
        do { try helper.join() } catch { failure = failure ?? error }
        if let failure { throw failure }
        written.finish()
        var reports = [LakeTableReport?](repeating: nil, count: relations.count)
        while let (index, report) = try written.receive() { reports[index] = report }
        return reports.compactMap { $0 }
    }

    /// A second read-only connection in a read transaction of the same generation; nil when it is not.
    private func secondConnection() throws -> SQLiteConnection? {
        guard relations.count > 1 else { return nil }
        let connection = try StoredDatabase.openForReading(databasePath, readOnly: true)
        try connection.execute("BEGIN")
        guard try LakeFingerprint.compute(connection, relations: LakeRelation.all).generation == generation else {
            return nil
        }
        return connection
    }

    private func work(_ connection: SQLiteConnection) throws {
        while let index = try pending.receive() {
            let relation = relations[index]
            do {
                let (file, report) = try StoredDatabase.read(databasePath) {
                    try LakeTableWriter.write(
                        relation, from: connection, to: staging + "/" + relation.name + "/" + fileName,
                        keyValueMetadata: metadata + [("healthetl.relation", relation.name)])
                }
                try file.moveIntoPlace()
                try FolderSwap.syncFolder(staging + "/" + relation.name)
                written.send((index, report))
            } catch {
                pending.cancel()
                throw error
            }
        }
    }
}
