import Foundation
import HealthModel

/// Where things are in a lake folder:
///
///     lake/<relation>/data-<generation>.parquet                 export without --person
///     lake/<relation>/person=<id>/data-<generation>.parquet     a person's partition (Hive style)
///     lake/_healthetl/<key>.json, <key>.lock                    the manifest of each publish, and its lock
///     lake/.healthetl-staging-<key>-<pid>/                      a publish under way (hidden; removed after)
///
/// The generation is the database's content fingerprint, so a file's name says which state it holds.
package struct LakeLayout: Sendable {
    package var root: String
    package var person: String?

    package init(root: String, person: String?) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.person = person
    }

    /// The name of this publish's manifest, lock and staging folder.
    var key: String { person.map { "person=" + $0 } ?? "all" }
    var controlFolder: String { root + "/_healthetl" }
    var manifestPath: String { controlFolder + "/" + key + ".json" }
    var lockPath: String { controlFolder + "/" + key + ".lock" }
    var stagingPrefix: String { ".healthetl-staging-" + key + "-" }

    func tableFolder(_ relation: String) -> String { root + "/" + relation }

    /// The folder that holds the relation's file for this publish, replaced whole.
    func leaf(_ relation: String) -> String {
        person.map { tableFolder(relation) + "/person=" + $0 } ?? tableFolder(relation)
    }

    static func fileName(generation: String) -> String { "data-" + generation + ".parquet" }

    /// A generation file's name (`data-` and 16 hex digits).
    static func isDataFile(_ name: String) -> Bool {
        guard name.hasPrefix("data-"), name.hasSuffix(".parquet"), name.count == 5 + 16 + 8 else { return false }
        return name.dropFirst(5).prefix(16).allSatisfy(\.isHexDigit)
    }

    /// A person id names a folder (`person=<id>`) that every Hive-aware reader parses: letters, digits,
    /// `-`, `_` and `.`, not starting with `.` or `_` (which readers skip as hidden).
    package static func checkPerson(_ person: String) throws(OptionValueError) {
        let allowed = person.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        guard allowed, !person.isEmpty, person.utf8.count <= 100, !person.hasPrefix("."), !person.hasPrefix("_")
        else {
            throw OptionValueError(
                message: "The value '\(person)' is invalid for '--person <id>' with '--parquet' (a folder name: "
                    + "letters, digits, '-', '_' and '.', up to 100, not starting with '.' or '_')")
        }
    }
}
