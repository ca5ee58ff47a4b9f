import Foundation
import SampleExports

/// A realistic export from the generator, made once per test process for each set of options and shared by
/// every test that asks for it (the generator is deterministic, so a copy is what a fresh run would write).
/// The zips live in one temporary folder, removed when the test process exits.
package struct GeneratedExport: Sendable {
    /// The zip; read it, copy it (`copy(to:)`), never change it.
    package let path: String
    /// What the generator wrote into it.
    package let tally: ExportTally

    /// The zip of `options`, generated on the first call with them (other callers wait for it).
    package static func zip(_ options: GeneratorOptions) throws -> GeneratedExport {
        // The options' description names every field, so equal descriptions are equal exports.
        try cache.value(String(reflecting: options)) {
            let path = folder + "/export-\(UUID().uuidString).zip"
            let tally = try ExportGenerator(options: options).write(to: .zip(path))
            return GeneratedExport(path: path, tally: tally)
        }
    }

    /// The export the end-to-end suites import: four days of `profile` at scale 0.4, seed 11.
    package static func realistic(_ profile: ExportProfile, xmlFileName: String = "export.xml") throws
        -> GeneratedExport
    {
        var options = GeneratorOptions(seed: 11, days: 4, profile: profile)
        options.scale = 0.4
        options.xmlFileName = xmlFileName
        return try zip(options)
    }

    /// `days` days of the iOS 18 profile at scale 0.5 with `seed`: the exports of the schema upgrade tests.
    package static func days(_ days: Int, seed: UInt64) throws -> GeneratedExport {
        var options = GeneratorOptions(seed: seed, days: days, profile: .ios18)
        options.scale = 0.5
        return try zip(options)
    }

    /// 120 days from 2024-01-01 (iOS 18, scale 0.1, seed 3, no side files) with a short illness planted on days
    /// 100–103 (2024-04-10 … 04-13): resting heart rate, respiratory rate and wrist temperature up, HRV down.
    package static func withIllness() throws -> GeneratedExport {
        var options = GeneratorOptions(seed: 3, days: 120, profile: .ios18)
        options.scale = 0.1
        options.includeSideFiles = false
        options.illnessDays = 100...103
        return try zip(options)
    }

    /// A copy of the zip at `target`, for a test that needs the file in its own folder.
    package func copy(to target: String) throws -> String {
        try FileManager.default.copyItem(atPath: path, toPath: target)
        return target
    }

    private static let cache = OnceCache<String, GeneratedExport>()

    private static let folder = TemporaryDirectory.removedAtExit("healthetl-tests-exports").path
}

/// Values made once per test process and shared, per key: the first caller makes one, callers with the same
/// key meanwhile wait for it, later ones get it at once (a failure too: every caller sees the same error).
/// Different keys are made side by side.
package final class OnceCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private final class Entry: @unchecked Sendable {
        let lock = NSLock()
        var result: Result<Value, any Error>?
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]

    package init() {}

    package func value(_ key: Key, make: () throws -> Value) throws -> Value {
        let entry = lock.withLock {
            if let entry = entries[key] { return entry }
            let entry = Entry()
            entries[key] = entry
            return entry
        }
        return try entry.lock.withLock {
            if let result = entry.result { return try result.get() }
            let result = Result { try make() }
            entry.result = result
            return try result.get()
        }
    }
}
