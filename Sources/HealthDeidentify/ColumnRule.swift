/// What happens to one column of a stored table in the de-identified copy. Every column of every stored table
/// has exactly one (`DeidentificationRules`; a test enumerates the schema), so a column added later fails the
/// tests until someone decides what it may reveal.
package enum ColumnRule: Sendable, Equatable {
    /// Copied as it is: values that say nothing about who the person is (measurements, units, types, ids).
    case keep
    /// A source name without its owner's name (`SourceNames`).
    case sourceName
    /// A device's own name without its owner's name (`SourceNames.deviceName`).
    case deviceName
    /// A list of source names joined by `; ` (`rollups.sources`), each without its owner's name.
    case sourceNameList
    /// A keyed pseudonym (HMAC-SHA256 with the key) of the text, under a label naming its class.
    case pseudonym(label: String, prefix: String)
    /// A fingerprint replaced by a keyed 64-bit integer: unique as before, but no longer recomputable from a
    /// guessed name.
    case keyedInteger(label: String)
    /// Free text that may name a person or a place: NULL.
    case drop
    /// An instant or day as text (`2024-03-05T07:12:00Z`, `2024-03-05`, `2024-03-05T07:12+01:00`): its date moved
    /// by the date shift, the rest of the text kept.
    case dateText
    /// Integer seconds since 1970, moved by the date shift.
    case seconds
    /// Integer centiseconds since 1970, moved by the date shift.
    case centiseconds
    /// Text that may name a person (warnings, errors): source names replaced, dates shifted, and the whole text
    /// replaced when a name is still in it.
    case scrubbedText
    /// A rule of this table alone, written as SQL over the source row `r`, with why.
    case special(sql: String, why: String)

    /// The class the rule puts a column in, for docs/privacy.md and the record of a run.
    package var className: String {
        switch self {
        case .keep: "kept"
        case .sourceName, .deviceName, .sourceNameList: "name-stripped"
        case .pseudonym, .keyedInteger: "pseudonymised"
        case .drop: "dropped"
        case .dateText, .seconds, .centiseconds: "shifted (with --shift-dates)"
        case .scrubbedText: "scrubbed"
        case .special: "special"
        }
    }
}

/// What happens to a whole stored table.
package enum TableRule: Sendable {
    /// Every row copied through its column rules (all of them: a test checks), optionally only rows matching
    /// `filter` (SQL over `r`).
    case copy([String: ColumnRule], filter: String? = nil, why: String? = nil)
    /// No row is copied: the table exists, empty. Covers every column, now and later.
    case empty(why: String)

    package var columnRules: [String: ColumnRule] {
        if case .copy(let rules, _, _) = self { return rules }
        return [:]
    }
}
