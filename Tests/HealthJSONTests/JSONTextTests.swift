import Foundation
import Testing

@testable import HealthJSON

/// The small-structure writer (`JSONText`, the store's attribute lists) quotes through the one quoter: what it
/// writes is the same text as the MCP server's `JSON` writes, and Foundation reads it back to the same strings.
@Suite struct JSONTextTests {
    @Test func quotesAsTheTreeWriterDoesAndReadsBack() throws {
        let texts = ["plain", "Zoë’s \"Watch\"", "back\\slash", "line\nbreak\ttab\r", "\u{01}\u{1f}\u{7f}", "", "日本語"]
        for text in texts {
            var tree: [UInt8] = []
            JSON.string(text).write(to: &tree)
            #expect(JSONText.quote(text) == String(decoding: tree, as: UTF8.self), "\(text)")
            let back =
                try JSONSerialization.jsonObject(
                    with: Data(JSONText.json([text]).utf8), options: []) as? [String]
            #expect(back == [text], "\(text)")
        }
        // UTF-8 as it is, not escapes: a name stays readable (and short) for whoever reads the column.
        #expect(JSONText.quote("Zoë") == "\"Zoë\"")
    }
}
