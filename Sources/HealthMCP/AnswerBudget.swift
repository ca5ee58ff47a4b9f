import HealthJSON

/// What one answer may cost a model's context: its text and its structured content together, in bytes of UTF-8.
/// A list grows row by row while both renderings of the row fit; past the budget a tool coarsens its periods
/// (day → week → month → year) or stops with a cursor, and says so in the answer (docs/mcp.md, "Answer budget").
package struct AnswerBudget {
    /// No answer is larger, whatever the arguments and the server's option: Claude Code refuses a tool answer over
    /// 25,000 tokens (`MAX_MCP_OUTPUT_TOKENS`), about 75 KB at 3 bytes a token; 60 KB leaves room.
    package static let hardCap = 60_000
    /// The default budget (`healthetl mcp --answer-budget`): about 2,700 tokens, a small part of any window.
    package static let defaultBytes = 8_000
    /// The smallest budget the server accepts: a summary and a few rows.
    package static let smallestBytes = 2_000

    package let maximumRows: Int
    package let maximumBytes: Int
    package private(set) var rows = 0
    package private(set) var bytes = 0
    package private(set) var truncated = false

    package init(rows: Int, bytes: Int) {
        maximumRows = rows
        maximumBytes = bytes
    }

    /// Whether one more row fits, counting its structured form and its text line; once one does not, none does.
    package mutating func admit(_ row: JSON, line: String) -> Bool {
        admit(bytes: row.serialized.utf8.count + line.utf8.count + 2)
    }

    package mutating func admit(bytes size: Int) -> Bool {
        guard !truncated else { return false }
        guard rows < maximumRows, bytes + size <= maximumBytes else {
            truncated = true
            return false
        }
        rows += 1
        bytes += size
        return true
    }

    /// The bytes of an answer as the budget counts them: the text and the structured content.
    package static func size(_ answer: ToolAnswer) -> Int {
        answer.text.utf8.count + answer.structured.serialized.utf8.count
    }

    /// The bytes left for a list once the fixed part of an answer is built, keeping `reserve` for what is added
    /// after the list (a cursor, a hint).
    package static func remaining(_ budget: Int, after fixed: ToolAnswer, reserve: Int = 400) -> Int {
        max(0, budget - size(fixed) - reserve)
    }

    /// The most rows, from `kept` down to one, whose answer fits `budget`: the rows are admitted on an estimate
    /// of what the rest of the answer costs, and this makes it exact.
    package static func fit(kept: Int, budget: Int, _ build: (Int) -> ToolAnswer) -> (kept: Int, answer: ToolAnswer) {
        var kept = kept
        var answer = build(kept)
        while kept > 1 && size(answer) > budget {
            kept -= 1
            answer = build(kept)
        }
        return (kept, answer)
    }
}
