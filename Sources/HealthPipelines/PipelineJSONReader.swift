import Foundation
import HealthJSON
import HealthModel

/// Reads the untyped tree of a pipeline file, checking each value's JSON type and each object's field names, and
/// collecting problems with their JSON paths instead of stopping at the first.
///
/// Codable is not used on purpose: it stops at the first error, ignores unknown fields and loses the path.
struct PipelineJSONReader {
    /// HealthJSON's tree in Foundation's untyped shapes (dictionaries, arrays, `NSNumber`, `NSNull`), which the
    /// parser and every registered output's `parse` read; the text itself is read by HealthJSON (`JSONParser`).
    static func untypedTree(_ value: JSON) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): NSNumber(value: flag)
        case .integer(let number): NSNumber(value: number)
        case .number(let number): NSNumber(value: number)
        case .string(let text): text
        case .array(let values): values.map(untypedTree)
        case .object(let members):
            Dictionary(members.map { ($0.0, untypedTree($0.1)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private(set) var problems: [PipelineError.Problem] = []

    mutating func report(_ path: String, _ message: String) {
        problems.append(PipelineError.Problem(path: path, message: message))
    }

    // MARK: Paths

    static func path(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : "\(parent).\(key)" }
    static func path(_ parent: String, _ index: Int) -> String { "\(parent)[\(index)]" }

    // MARK: Typed access

    /// An object whose fields are all in `allowed`; unknown fields are reported (with a suggestion) but the
    /// object is still returned, so its known fields get checked too.
    mutating func object(_ value: Any, at path: String, allowed: [String], owner: String = "") -> [String: Any]? {
        guard let object = value as? [String: Any] else {
            report(path, Self.mismatch("an object", value))
            return nil
        }
        for key in object.keys.sorted() where !allowed.contains(key) {
            let hint =
                Self.suggestion(for: key, among: allowed).map { "did you mean '\($0)'?" }
                ?? "allowed\(owner.isEmpty ? "" : " in \(owner)"): \(allowed.joined(separator: ", "))"
            report(Self.path(path, key), "unknown field '\(key)' (\(hint))")
        }
        return object
    }

    mutating func array(_ value: Any, at path: String) -> [Any]? {
        guard let array = value as? [Any] else {
            report(path, Self.mismatch("an array", value))
            return nil
        }
        return array
    }

    mutating func string(_ value: Any, at path: String) -> String? {
        guard let text = value as? String else {
            report(path, Self.mismatch("a string", value))
            return nil
        }
        return text
    }

    mutating func nonEmptyString(_ value: Any, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        guard !text.isEmpty else {
            report(path, "must not be empty")
            return nil
        }
        return text
    }

    mutating func bool(_ value: Any, at path: String) -> Bool? {
        guard Self.isBool(value), let number = value as? NSNumber else {
            report(path, Self.mismatch("a boolean", value))
            return nil
        }
        return number.boolValue
    }

    mutating func number(_ value: Any, at path: String) -> Double? {
        guard !Self.isBool(value), let number = value as? NSNumber else {
            report(path, Self.mismatch("a number", value))
            return nil
        }
        return number.doubleValue
    }

    /// A non-empty array of strings; elements of the wrong type are reported at `path[i]` and left out.
    mutating func strings(_ value: Any, at path: String, what: String) -> [(index: Int, text: String)]? {
        guard let array = array(value, at: path) else { return nil }
        guard !array.isEmpty else {
            report(path, "empty list: give at least one \(what)")
            return nil
        }
        var result: [(Int, String)] = []
        for (index, element) in array.enumerated() {
            if let text = nonEmptyString(element, at: Self.path(path, index)) { result.append((index, text)) }
        }
        return result
    }

    // MARK: Wording

    /// JSON booleans and numbers both arrive as NSNumber; booleans are the ones of type "c" (char), which the
    /// parser never produces for a number.
    static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func jsonType(of value: Any) -> String {
        switch value {
        case is NSNull: "null"
        case _ where isBool(value): "a boolean"
        case is NSNumber: "a number"
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        default: "an unknown value"
        }
    }

    static func mismatch(_ expected: String, _ found: Any) -> String {
        "expected \(expected), found \(jsonType(of: found))"
    }

    /// The closest of `candidates` when it is close enough to be a typo (the CLI's rule: distance < 4, and
    /// less than half the word, so that short words do not "match" anything).
    static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best, distance < 4, distance * 2 < max(word.count, 2) else { return nil }
        return candidate
    }
}
