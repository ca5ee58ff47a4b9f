import HealthJSON

/// A tool call's `arguments`, read with the checks every tool needs; each failure names the argument and why.
/// Unknown arguments are refused too: a misspelt `strat` silently ignored would answer another question.
package struct ToolArguments {
    private let members: [(String, JSON)]

    package init(_ value: JSON?, allowed: [String]) throws(ToolError) {
        switch value {
        case nil, .null?: members = []
        case .object(let object)?: members = object
        default: throw ToolError.argument(name: "arguments", reason: "must be an object")
        }
        for (name, _) in members where !allowed.contains(name) {
            let expected =
                allowed.isEmpty ? "this tool takes no arguments" : "expected one of: " + allowed.joined(separator: ", ")
            throw ToolError.argument(name: name, reason: "unknown argument; \(expected)")
        }
    }

    private func value(_ name: String) -> JSON? {
        guard let value = members.first(where: { $0.0 == name })?.1, value != .null else { return nil }
        return value
    }

    package func string(_ name: String) throws(ToolError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else { throw ToolError.argument(name: name, reason: "must be a string") }
        return text
    }

    /// A list of strings; a single string counts as a list of one.
    package func strings(_ name: String, count: ClosedRange<Int>) throws(ToolError) -> [String]? {
        guard let value = value(name) else { return nil }
        let list: [String]
        switch value {
        case .string(let text): list = [text]
        case .array(let items):
            list = items.compactMap(\.stringValue)
            guard list.count == items.count else {
                throw ToolError.argument(name: name, reason: "must be a list of strings")
            }
        default: throw ToolError.argument(name: name, reason: "must be a list of strings")
        }
        guard count.contains(list.count) else {
            throw ToolError.argument(
                name: name, reason: "must hold \(count.lowerBound) to \(count.upperBound) names, not \(list.count)")
        }
        return list
    }

    package func requiredString(_ name: String) throws(ToolError) -> String {
        guard let text = try string(name), !text.trimmingWhitespace.isEmpty else {
            throw ToolError.argument(name: name, reason: "is required")
        }
        return text
    }

    package func integer(_ name: String, range: ClosedRange<Int>) throws(ToolError) -> Int? {
        guard let value = value(name) else { return nil }
        guard let number = value.integerValue else {
            throw ToolError.argument(name: name, reason: "must be a whole number")
        }
        guard number >= range.lowerBound, number <= range.upperBound else {
            throw ToolError.argument(name: name, reason: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return Int(number)
    }

    package func boolean(_ name: String) throws(ToolError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard case .bool(let flag) = value else {
            throw ToolError.argument(name: name, reason: "must be true or false")
        }
        return flag
    }

    /// A local calendar date, `YYYY-MM-DD`.
    package func date(_ name: String) throws(ToolError) -> LocalDate? {
        guard let text = try string(name) else { return nil }
        guard let date = LocalDate(text) else {
            throw ToolError.argument(
                name: name, reason: "'\(text.prefix(40))' is not a date; use YYYY-MM-DD (2024-03-24)")
        }
        return date
    }

    package func requiredDate(_ name: String) throws(ToolError) -> LocalDate {
        guard let date = try date(name) else {
            throw ToolError.argument(name: name, reason: "is required (YYYY-MM-DD)")
        }
        return date
    }

    /// A date range whose end is not before its start; never refused for its length (docs/mcp.md, "Answer budget").
    package func range(start: String = "start", end: String = "end", required: Bool)
        throws(ToolError) -> ClosedRange<LocalDate>?
    {
        let first = required ? try requiredDate(start) : try date(start)
        let last = required ? try requiredDate(end) : try date(end)
        guard first != nil || last != nil else { return nil }
        let lower = first ?? LocalDate(year: 1900, month: 1, day: 1)
        let upper = last ?? LocalDate(year: 9999, month: 12, day: 31)
        guard lower <= upper else {
            throw ToolError.argument(name: end, reason: "\(upper) is before \(start) \(lower)")
        }
        return lower...upper
    }

    /// One of a fixed set of words.
    package func choice(_ name: String, from choices: [String]) throws(ToolError) -> String? {
        guard let text = try string(name) else { return nil }
        guard choices.contains(text) else {
            throw ToolError.argument(
                name: name, reason: "'\(text.prefix(40))' is not one of: " + choices.joined(separator: ", "))
        }
        return text
    }
}

extension String {
    var trimmingWhitespace: Substring {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return Substring(scalars[first...last])
    }
}
