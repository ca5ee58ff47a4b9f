import Foundation
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
            found = try scanner.scan { raw in
                index += 1
                guard let parsed = try? JSONSerialization.jsonObject(with: Data(raw)) as? [String: Any] else {
                    localWarnings["State of Mind entries that are not JSON objects (skipped)", default: 0] += 1
                    return
                }
                var removed = 0
                let object = withoutNUL(parsed, removed: &removed) as? [String: Any] ?? parsed
                if removed > 0 {
                    localWarnings["NUL characters removed from State of Mind text", default: 0] += removed
                }
                try body(entry(object, origin: "\(path): stateOfMind[\(index - 1)]", warnings: &localWarnings))
            }
        } catch var error as ImportError {
            error.file = path
            throw error
        }
        warnings.merge(localWarnings, uniquingKeysWith: +)
        if !found {
            throw ImportError(
                .input, "no data.stateOfMind array in this JSON file", file: path,
                hint: "export State of Mind from Health Auto Export as JSON")
        }
    }

    static func entry(
        _ object: [String: Any], origin: String, warnings: inout [String: Int]
    ) -> StateOfMindEntry {
        var entry = StateOfMindEntry(source: (object["source"] as? String) ?? sourceName, origin: origin)
        entry.identifier = object["id"] as? String
        entry.kind = object["kind"] as? String
        entry.startDate = date(object["start"], warnings: &warnings)
        entry.endDate = date(object["end"], warnings: &warnings) ?? entry.startDate
        if let number = object["valence"] as? NSNumber {
            entry.valence = number.doubleValue
        } else if let text = object["valence"] as? String {
            entry.valence = NumberParsing.parseDouble(text)
        }
        entry.classification =
            (object["valenceClassification"] as? String)
            ?? (object["valenceClassification"] as? NSNumber)?.stringValue
        entry.labels = strings(object["labels"])
        entry.associations = strings(object["associations"])
        if let metadata = object["metadata"], JSONSerialization.isValidJSONObject(metadata),
            let data = try? JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys])
        {
            entry.metadataJSON = String(decoding: data, as: UTF8.self)
        }
        return entry
    }

    /// `\u0000` in a JSON string decodes to U+0000, which no text column should hold (PostgreSQL refuses it,
    /// and C tools cut the text there); the XML gets the same treatment from `XMLInputFilter`.
    static func withoutNUL(_ value: Any, removed: inout Int) -> Any {
        switch value {
        case let text as String where text.contains("\u{0}"):
            removed += text.unicodeScalars.filter { $0 == "\u{0}" }.count
            return text.replacingOccurrences(of: "\u{0}", with: "")
        case let object as [String: Any]:
            var cleaned: [String: Any] = [:]
            for (key, element) in object {
                cleaned[withoutNUL(key, removed: &removed) as? String ?? key] = withoutNUL(element, removed: &removed)
            }
            return cleaned
        case let list as [Any]:
            return list.map { withoutNUL($0, removed: &removed) }
        default:
            return value
        }
    }

    package static func strings(_ value: Any?) -> [String] {
        if let list = value as? [Any] { return list.compactMap { ($0 as? String) ?? ($0 as? NSNumber)?.stringValue } }
        if let single = value as? String { return [single] }
        return []
    }

    static func date(_ value: Any?, warnings: inout [String: Int]) -> Timestamp? {
        guard let text = value as? String else { return nil }
        if let parsed = Timestamp.parse(text) { return parsed }
        warnings["State of Mind dates not in the export's format (left empty)", default: 0] += 1
        return nil
    }
}
