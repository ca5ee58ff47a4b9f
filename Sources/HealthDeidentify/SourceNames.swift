import Foundation

/// Source and device names without their owner's name: "Jonathan’s Apple Watch" → "Apple Watch".
///
/// A device's source name is what its owner called it, which the Health app builds from the owner's first name
/// in every language (`Jonathan’s iPhone`, `iPhone von Jonathan`, `iPhone de Jonathan`, `iPhone di Jonathan`,
/// `JonathanのiPhone`, `iPhone (Jonathan)`, …), or whatever the owner typed (`Ryan Phone`). The rules, first match
/// wins:
/// 1. the name contains an Apple device kind as a word → that kind;
/// 2. the source is an Apple device writing as itself (its version is the device's software version) and not one
///    of Apple's own apps → the device's kind from its model;
/// 3. a possessive form of the languages above → the possessed part;
/// 4. what is left is a known app's name (`KnownHealthApps`: `Health`, `AutoSleep`, `Strava`) → kept, unless it
///    contains a word of a person's name found in the export (ECG header, CDA, FHIR);
/// 5. anything else → a keyed pseudonym (`source-…`): fail-closed, since an app the list does not know may be
///    named after its owner ("freddie connect"). With `keepUnknownApps` (a person who checked their names) it is
///    kept unless it contains a word of a person's name found in the export, as in rule 4.
package struct SourceNames: Sendable {
    /// Longest first, so "Apple Watch Ultra" is not read as "Apple Watch".
    package static let deviceKinds = [
        "Apple Watch Ultra", "Apple Watch", "Apple Vision Pro", "iPod touch", "iPhone", "iPad", "iPod",
        "AirPods Pro", "AirPods Max", "AirPods", "MacBook Pro", "MacBook Air", "MacBook", "iMac", "Mac mini",
        "HomePod",
    ]

    /// Separators between a device and its owner's name: the owner comes after (`iPhone von Jonathan`).
    static let ownerAfter = [
        " von ", " de ", " d’", " d'", " di ", " da ", " van ", " del ", " della ", " du ", " użytkownika ",
        " — ", " - ",
    ]
    /// The owner comes before: `Jonathan’s iPhone`, `JonathanのiPhone`, `Jonathan的iPhone`, `Jonathan의 iPhone`.
    static let ownerBefore = ["’s ", "'s ", "`s ", "´s ", "s’ ", "s' ", "の", "的", "의"]

    /// Words of people's names found in the export (lower-cased, 3 characters or more).
    package let nameWords: Set<String>
    /// Keep source names that are on no list of known apps (rule 5); off by default.
    package let keepUnknownApps: Bool
    private let key: DeidentificationKey

    package init(nameWords: Set<String>, key: DeidentificationKey, keepUnknownApps: Bool = false) {
        self.nameWords = nameWords
        self.key = key
        self.keepUnknownApps = keepUnknownApps
    }

    /// The name a source row gets. `deviceModel`, `manufacturer`, `version`, `software`: the row's other columns.
    package func sourceName(
        _ name: String, deviceModel: String? = nil, manufacturer: String? = nil, version: String? = nil,
        software: String? = nil
    ) -> String {
        if let kind = Self.deviceKind(in: name) { return kind }
        if manufacturer?.hasPrefix("Apple") == true, let model = deviceModel, version != nil, version == software,
            !KnownHealthApps.isApple(name)
        {
            return Self.deviceKind(in: model) ?? (model == "Watch" ? "Apple Watch" : model)
        }
        let rest = Self.withoutOwner(name) ?? name
        if !keepUnknownApps, !KnownHealthApps.contains(rest) { return key.pseudonym("source", rest, prefix: "source") }
        return withoutNames(rest, label: "source", prefix: "source")
    }

    /// A device's own name (`sources.device_name`, `HKDevice` `name:`): the same rules without the row.
    package func deviceName(_ name: String) -> String {
        if let kind = Self.deviceKind(in: name) { return kind }
        return withoutNames(Self.withoutOwner(name) ?? name, label: "device name", prefix: "device")
    }

    /// `text` itself, or a keyed pseudonym when it still contains a word of a person's name.
    func withoutNames(_ text: String, label: String, prefix: String) -> String {
        containsName(text) ? key.pseudonym(label, text, prefix: prefix) : text
    }

    /// Whether `text` contains a word of a person's name, as a whole word, ignoring case.
    package func containsName(_ text: String) -> Bool {
        guard !nameWords.isEmpty else { return false }
        return Self.words(text).contains { nameWords.contains($0) }
    }

    /// The words of `text`, lower-cased (letters and digits; anything else separates).
    package static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// The longest device kind that appears in `name` as a word (no ASCII letter or digit either side).
    package static func deviceKind(in name: String) -> String? {
        for kind in deviceKinds {
            var searchStart = name.startIndex
            while let range = name.range(of: kind, options: .caseInsensitive, range: searchStart..<name.endIndex) {
                let before = range.lowerBound == name.startIndex ? nil : name[name.index(before: range.lowerBound)]
                let after = range.upperBound == name.endIndex ? nil : name[range.upperBound]
                if !isASCIIWordCharacter(before), !isASCIIWordCharacter(after) { return kind }
                searchStart = range.upperBound
            }
        }
        return nil
    }

    /// The possessed part of a possessive name, nil when `name` is not one.
    package static func withoutOwner(_ name: String) -> String? {
        for separator in ownerBefore {
            if let range = name.range(of: separator), range.lowerBound != name.startIndex {
                let rest = name[range.upperBound...].trimmingCharacters(in: .whitespaces)
                if !rest.isEmpty { return rest }
            }
        }
        for separator in ownerAfter {
            if let range = name.range(of: separator, options: .backwards), range.lowerBound != name.startIndex {
                let rest = name[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
                if !rest.isEmpty { return rest }
            }
        }
        // `iPhone (Jonathan)`
        if name.hasSuffix(")"), let open = name.range(of: " (", options: .backwards), open.lowerBound != name.startIndex
        {
            return String(name[..<open.lowerBound])
        }
        return nil
    }

    private static func isASCIIWordCharacter(_ character: Character?) -> Bool {
        guard let character, character.isASCII else { return false }
        return character.isLetter || character.isNumber
    }
}
