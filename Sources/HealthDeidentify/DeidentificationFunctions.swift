import Foundation
import HealthRollups
import HealthSQLite
import HealthStore

/// What a run changed, per class of identifier (recorded in the copy's `deidentification` setting).
package struct DeidentificationCounts: Sendable, Equatable {
    /// Source and device names that lost their owner's name (each value written, not each distinct name).
    package var namesStripped = 0
    /// Identifiers replaced by keyed pseudonyms (serial numbers, device names, external and sync identifiers).
    package var pseudonyms = 0
    /// Row fingerprints replaced by keyed integers.
    package var keyedFingerprints = 0
    /// Texts (warnings, errors) changed because they named a source, a date or a person.
    package var textsScrubbed = 0
    /// Dates of birth reduced to a year.
    package var birthDatesGeneralised = 0
    /// Metadata entries dropped (free text, third-party keys whose value is not a number).
    package var metadataDropped = 0
    /// Rows of the tables that stay empty (clinical records, documents, route points with `--routes drop`).
    package var rowsEmptied = 0

    var dictionary: [String: Int] {
        [
            "names_stripped": namesStripped, "pseudonyms": pseudonyms, "keyed_fingerprints": keyedFingerprints,
            "texts_scrubbed": textsScrubbed, "birth_dates_generalised": birthDatesGeneralised,
            "metadata_dropped": metadataDropped, "rows_emptied": rowsEmptied,
        ]
    }
}

/// The SQL functions the copy's `INSERT … SELECT`s call (`deid_…`), over one run's context. One thread.
final class DeidentificationFunctions {
    let context: DeidentificationContext
    private(set) var counts = DeidentificationCounts()

    init(context: DeidentificationContext) { self.context = context }

    func register(on connection: SQLiteConnection) throws {
        try connection.registerTextFunction("deid_source_name", argumentCount: 1) { [unowned self] in
            $0[0].map(self.sourceName)
        }
        try connection.registerTextFunction("deid_device_name", argumentCount: 1) { [unowned self] arguments in
            arguments[0].map { self.changed($0, self.context.names.deviceName($0)) }
        }
        try connection.registerTextFunction("deid_source_list", argumentCount: 1) { [unowned self] arguments in
            arguments[0].map { list in
                var seen: [String] = []
                for part in list.components(separatedBy: "; ") {
                    let name = self.sourceName(part)
                    if !seen.contains(name) { seen.append(name) }
                }
                return seen.joined(separator: "; ")
            }
        }
        try connection.registerTextFunction("deid_pseudonym", argumentCount: 3) { [unowned self] arguments in
            guard let label = arguments[0], let prefix = arguments[1], let value = arguments[2] else { return nil }
            self.counts.pseudonyms += 1
            return self.context.key.pseudonym(label, value, prefix: prefix)
        }
        try connection.registerTextFunction("deid_pseudonym2", argumentCount: 4) { [unowned self] arguments in
            guard let label = arguments[0], let prefix = arguments[1], let first = arguments[2],
                let second = arguments[3]
            else { return nil }
            self.counts.pseudonyms += 1
            return self.context.key.pseudonym(label, first + "\u{0}" + second, prefix: prefix)
        }
        for label in KeyedIntegers.labels {
            let hasher = context.key.rowHasher(label)
            try connection.registerIntegerFunction(KeyedIntegers.functionName(label)) { [unowned self] value in
                self.counts.keyedFingerprints += 1
                return Int64(bitPattern: hasher.hash(value))
            }
        }
        try connection.registerTextFunction("deid_text", argumentCount: 1) { [unowned self] arguments in
            arguments[0].map { text in
                let scrubbed = self.scrub(text)
                if scrubbed != text { self.counts.textsScrubbed += 1 }
                return scrubbed
            }
        }
        try connection.registerTextFunction("deid_characteristic", argumentCount: 2) { [unowned self] arguments in
            guard let key = arguments[0], let value = arguments[1] else { return arguments[1] }
            guard key == "HKCharacteristicTypeIdentifierDateOfBirth", !value.isEmpty else { return value }
            self.counts.birthDatesGeneralised += 1
            return BirthYear.generalised(value, exportYear: self.context.exportYear)
        }
        try connection.registerTextFunction("deid_setting", argumentCount: 2) { [unowned self] arguments in
            guard let key = arguments[0] else { return nil }
            return self.setting(key, arguments[1])
        }
        try connection.registerTextFunction("deid_metadata_pseudonym", argumentCount: 2) { [unowned self] arguments in
            guard let id = arguments[0].flatMap({ Int64($0) }), let key = self.context.metadataKeys[id],
                let value = arguments[1]
            else { return nil }
            self.counts.pseudonyms += 1
            return self.context.key.pseudonym("metadata " + key, value, prefix: "id")
        }
        try connection.registerTextFunction("deid_is_number", argumentCount: 1) { arguments in
            arguments[0].flatMap { MetadataPolicy.isNumber($0) ? "1" : nil }
        }
        let frames = context.routeFrames
        try connection.registerRealFunction("deid_route_latitude", argumentCount: 3) { arguments in
            frames[Int64(arguments[0])]?.point(latitude: arguments[1], longitude: arguments[2]).latitude
        }
        try connection.registerRealFunction("deid_route_longitude", argumentCount: 3) { arguments in
            frames[Int64(arguments[0])]?.point(latitude: arguments[1], longitude: arguments[2]).longitude
        }
        try connection.registerRealFunction("deid_route_course", argumentCount: 2) { arguments in
            frames[Int64(arguments[0])]?.course(arguments[1])
        }
    }

    func sourceName(_ name: String) -> String {
        let result = context.sourceNames[name] ?? context.names.sourceName(name)
        return changed(name, result)
    }

    private func changed(_ original: String, _ result: String) -> String {
        if result != original { counts.namesStripped += 1 }
        return result
    }

    /// Each metadata key's class, in a temporary table the rules look keys up in (never in the copy's file).
    func writeMetadataKeyClasses(_ connection: SQLiteConnection) throws {
        try connection.execute("CREATE TEMP TABLE deid_metadata_keys (id INTEGER PRIMARY KEY, class INTEGER NOT NULL)")
        let insert = try connection.prepare("INSERT INTO temp.deid_metadata_keys (id, class) VALUES (?1, ?2)")
        for (id, key) in context.metadataKeys {
            try insert.run([.integer(id), .integer(Int64(MetadataPolicy.keyClass(key, names: context.names).rawValue))])
        }
    }

    /// Source names replaced (longest first, so "Jonathan’s Apple Watch" goes before "Jonathan"), dates shifted
    /// like the columns; a text that still names a person is replaced whole.
    func scrub(_ text: String) -> String {
        var result = text
        for (original, replacement) in context.sourceNames.sorted(by: { $0.key.count > $1.key.count })
        where original != replacement && result.contains(original) {
            result = result.replacingOccurrences(of: original, with: replacement)
        }
        if context.options.shiftDates { result = DateShift.shiftDates(in: result, days: context.key.shiftWeeks * 7) }
        if context.names.containsName(result) { return "(removed: the text named a person)" }
        return result
    }

    /// The settings the copy keeps: time zone, units, ids given out, and the rollup options with their source
    /// names stripped (and without months when dates are shifted). Others are left out.
    func setting(_ key: String, _ value: String?) -> String? {
        switch key {
        case "time_zone", "units": return value
        case _ where key.hasPrefix("last_id:"): return value
        case "rollups":
            // Foundation's decoder stays: the project's own Codable setting, written by JSONEncoder (RunEnd).
            guard let value, var options = try? JSONDecoder().decode(RollupOptions.self, from: Data(value.utf8)) else {
                return nil
            }
            options.priority = SourcePriority(renaming: options.priority, with: sourceName)
            options.priorityByType = options.priorityByType.mapValues {
                SourcePriority(renaming: $0, with: sourceName)
            }
            if context.options.shiftDates { options.periods.removeAll { $0 == .month } }
            guard let data = try? JSONEncoder().encode(options) else { return nil }
            return String(decoding: data, as: UTF8.self)
        default: return nil
        }
    }
}

/// The labels of `ColumnRule.keyedInteger` rules, each an integer SQL function of its own (`deid_keyed_identity`).
enum KeyedIntegers {
    static let labels = ["identity"]

    static func functionName(_ label: String) -> String {
        "deid_keyed_" + label.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined()
    }
}
