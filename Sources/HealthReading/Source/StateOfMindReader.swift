import Foundation
import HealthJSON
import HealthModel

/// Reads State of Mind entries from a Health Auto Export JSON file: `{"data": {"stateOfMind": [ … ]}}`, each
/// entry with `id`, `start`, `end` (the export's date format), `kind`, `labels`, `associations`, `valence`,
/// `valenceClassification` and `metadata`.
public enum StateOfMindReader {
    public static let sourceName = "Health Auto Export"

    /// Calls `body` for each entry, in file order. Entries that are not objects, or have unreadable dates, are
    /// counted in `warnings` and skipped; a file that is not JSON at all is an error naming the line.
    public static func read(
        path: String, warnings: inout [String: Int], _ body: (StateOfMindEntry) throws -> Void
    ) throws {
        var scanner = JSONArrayScanner(stream: try FileStream(path: path), path: ["data", "stateOfMind"])
        var index = 0
        var localWarnings: [String: Int] = [:]
        let found: Bool
        do {
            found = try scanner.scan { element in
                index += 1
                let origin = "\(path): stateOfMind[\(index - 1)]"
                guard let entry = entry(element, origin: origin, warnings: &localWarnings) else { return }
                try body(entry)
            }
        } catch let error as JSONError {
            throw ImportError(error, file: path)
        }
        warnings.merge(localWarnings, uniquingKeysWith: +)
        if !found {
            throw ImportError(
                .input, "no data.stateOfMind array in this JSON file", file: path,
                hint: "export State of Mind from Health Auto Export as JSON")
        }
    }

    /// One entry, NUL characters removed (and counted); nil, counted in `warnings`, when it is not an object.
    static func entry(_ element: JSON, origin: String, warnings: inout [String: Int]) -> StateOfMindEntry? {
        guard case .object = element else {
            warnings["State of Mind entries that are not JSON objects (skipped)", default: 0] += 1
            return nil
        }
        var removed = 0
        let object = withoutNUL(element, removed: &removed)
        if removed > 0 { warnings["NUL characters removed from State of Mind text", default: 0] += removed }
        var entry = StateOfMindEntry(source: object["source"]?.stringValue ?? sourceName, origin: origin)
        entry.identifier = object["id"]?.stringValue
        entry.kind = object["kind"]?.stringValue
        entry.startDate = date(object["start"], warnings: &warnings)
        entry.endDate = date(object["end"], warnings: &warnings) ?? entry.startDate
        if let text = object["valence"]?.stringValue {
            entry.valence = NumberParsing.parseDouble(text)
        } else {
            entry.valence = object["valence"]?.doubleValue
        }
        entry.classification = object["valenceClassification"].flatMap(text)
        entry.labels = strings(object["labels"])
        entry.associations = strings(object["associations"])
        if let metadata = object["metadata"] {
            switch metadata {
            case .object, .array: entry.metadataJSON = withSortedKeys(metadata).serialized
            default: break
            }
        }
        return entry
    }

    /// `\u0000` in a JSON string decodes to U+0000, which no text column should hold (PostgreSQL refuses it,
    /// and C tools cut the text there); the XML gets the same treatment from `XMLInputFilter`.
    static func withoutNUL(_ value: JSON, removed: inout Int) -> JSON {
        func cleaned(_ text: String) -> String {
            guard text.contains("\u{0}") else { return text }
            removed += text.unicodeScalars.filter { $0 == "\u{0}" }.count
            return text.replacingOccurrences(of: "\u{0}", with: "")
        }
        switch value {
        case .string(let text): return .string(cleaned(text))
        case .object(let members): return .object(members.map { (cleaned($0.0), withoutNUL($0.1, removed: &removed)) })
        case .array(let values): return .array(values.map { withoutNUL($0, removed: &removed) })
        default: return value
        }
    }

    /// Objects with their keys in order, at every level (the last of a repeated key kept), so that one
    /// entry's metadata is always written the same way.
    static func withSortedKeys(_ value: JSON) -> JSON {
        switch value {
        case .object(let members):
            let unique = Dictionary(members, uniquingKeysWith: { _, last in last })
            return .object(unique.sorted { $0.key < $1.key }.map { ($0.key, withSortedKeys($0.value)) })
        case .array(let values): return .array(values.map(withSortedKeys))
        default: return value
        }
    }

    /// A string, or a number as its text (`2`, `0.5`).
    static func text(_ value: JSON) -> String? {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number): String(number)
        default: nil
        }
    }

    package static func strings(_ value: JSON?) -> [String] {
        switch value {
        case .array(let values)?: values.compactMap(text)
        case .string(let single)?: [single]
        default: []
        }
    }

    static func date(_ value: JSON?, warnings: inout [String: Int]) -> Timestamp? {
        guard let text = value?.stringValue else { return nil }
        if let parsed = Timestamp.parse(text) { return parsed }
        warnings["State of Mind dates not in the export's format (left empty)", default: 0] += 1
        return nil
    }
}
