import Foundation
import HealthTestSupport
import Testing

@testable import HealthLake

/// docs/lake.md lists every relation's columns and types as the code derives them from the schema.
@Suite struct LakeDocumentationTests {
    @Test func theDocumentedTypesAreTheWrittenTypes() throws {
        let path = Fixtures.repositoryRoot + "/docs/lake.md"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- types:begin (generated: LakeRelation.typesMarkdown) -->\n"))
        let end = try #require(text.range(of: "<!-- types:end -->"))
        let documented = String(text[begin.upperBound..<end.lowerBound])
        let expected = LakeRelation.typesMarkdown
        if documented != expected {
            // The section to paste, for whoever changed the schema.
            try? expected.write(
                toFile: Fixtures.repositoryRoot + "/.build/lake-types.md", atomically: true, encoding: .utf8)
        }
        #expect(documented == expected, "docs/lake.md's types differ: see .build/lake-types.md")
    }
}
