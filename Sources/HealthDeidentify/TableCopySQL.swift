import HealthModel
import HealthSchema
import HealthStore

/// The `INSERT … SELECT` that copies one stored table through its rules, from the attached original (`source`)
/// into the new database (`main`).
struct TableCopySQL {
    /// Days every instant moves by (a whole number of weeks; 0 without `--shift-dates`).
    let shiftDays: Int

    /// The statement, or nil for a table that stays empty. Throws when a column has no rule.
    func copy(_ table: SchemaTable, _ rule: TableRule) throws -> String? {
        guard case .copy(let rules, let filter, _) = rule else { return nil }
        var expressions: [String] = []
        for column in table.columns {
            guard let columnRule = rules[column.name] else {
                throw ImportError(
                    .internal, "no de-identification rule for \(table.name).\(column.name): nothing written")
            }
            expressions.append(expression(columnRule, column: column.name))
        }
        let names = table.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        return "INSERT INTO main.\"\(table.name)\" (\(names))\nSELECT "
            + expressions.joined(separator: ",\n       ") + "\nFROM source.\"\(table.name)\" AS r"
            + (filter.map { "\nWHERE " + $0 } ?? "")
    }

    func expression(_ rule: ColumnRule, column: String) -> String {
        let value = "r.\"\(column)\""
        switch rule {
        case .keep: return value
        case .sourceName: return "deid_source_name(\(value))"
        case .deviceName: return "deid_device_name(\(value))"
        case .sourceNameList: return "deid_source_list(\(value))"
        case .pseudonym(let label, let prefix): return "deid_pseudonym('\(label)', '\(prefix)', \(value))"
        case .keyedInteger(let label): return "\(KeyedIntegers.functionName(label))(\(value))"
        case .drop: return "NULL"
        case .dateText:
            guard shiftDays != 0 else { return value }
            // SQLite's date() is NULL for a text that is not a date: such a value is dropped, never kept unshifted.
            return
                "date(substr(\(value), 1, 10), '\(shiftDays > 0 ? "+" : "")\(shiftDays) days') || substr(\(value), 11)"
        case .seconds:
            return shiftDays == 0 ? value : "\(value) + \(Int64(shiftDays) * 86_400)"
        case .centiseconds:
            return shiftDays == 0 ? value : "\(value) + \(Int64(shiftDays) * 8_640_000)"
        case .scrubbedText: return "deid_text(\(value))"
        case .special(let sql, _): return sql
        }
    }
}
