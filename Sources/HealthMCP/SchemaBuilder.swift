import HealthJSON

/// JSON Schema fragments for the tools' `inputSchema` and `outputSchema`, written once. Clients validate every
/// answer against the output schema (the Python SDK does), so nullable fields say so.
enum SchemaBuilder {
    static func object(_ properties: [(String, JSON)], required: [String] = [], additional: Bool = false) -> JSON {
        .object([
            ("type", "object"), ("properties", .object(properties)), ("required", .array(required.map(JSON.string))),
            ("additionalProperties", .bool(additional)),
        ])
    }

    static func string(_ description: String? = nil) -> JSON { typed("string", description) }
    static func integer(_ description: String? = nil) -> JSON { typed("integer", description) }
    static func number(_ description: String? = nil) -> JSON { typed("number", description) }
    static func boolean(_ description: String? = nil) -> JSON { typed("boolean", description) }

    static func nullable(_ type: String, _ description: String? = nil) -> JSON {
        var members: [(String, JSON)] = [("type", [.string(type), "null"])]
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }

    static func array(_ items: JSON, _ description: String? = nil) -> JSON {
        var members: [(String, JSON)] = [("type", "array"), ("items", items)]
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }

    static func choice(_ values: [String], _ description: String) -> JSON {
        .object([("type", "string"), ("enum", .array(values.map(JSON.string))), ("description", .string(description))])
    }

    /// `YYYY-MM-DD`, a local date in the database's time zone.
    static func date(_ description: String) -> JSON {
        .object([
            ("type", "string"), ("pattern", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), ("description", .string(description)),
        ])
    }

    /// Any JSON value (a cell of the `sql` tool).
    static let anyValue: JSON = .object([("type", ["string", "number", "integer", "boolean", "null", "object"])])

    private static func typed(_ type: String, _ description: String?) -> JSON {
        var members: [(String, JSON)] = [("type", .string(type))]
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }
}
