import Foundation

/// What a command run in-process (`Tool(standardOutput:standardError:…)`) wrote, for the tests to read.
package final class CapturedOutput {
    package var out = ""
    package var err = ""

    package init() {}
}

/// A JSON object printed by a command or a script (`--json`, the checkers in scripts/): empty when it is not one.
package func jsonObject(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
}
