import Testing

@testable import HealthSQLite

/// SQL functions written in Swift: values in and out as SQLite's own types, NULL for NULL.
@Suite struct SQLiteFunctionTests {
    @Test func integerFunctionsTakeAndGiveIntegers() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.registerIntegerFunction("plus_one") { $0 &+ 1 }
        #expect(try connection.scalar("SELECT plus_one(41)") == .integer(42))
        #expect(try connection.scalar("SELECT plus_one(9223372036854775807)") == .integer(Int64.min))
        #expect(try connection.scalar("SELECT plus_one(NULL)") == .null)
        #expect(try connection.scalar("SELECT typeof(plus_one('7'))") == .text("integer"))
    }

    @Test func realFunctionsTakeEveryArgumentAsADouble() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.registerRealFunction("weighted", argumentCount: 3) { $0[0] * $0[1] + $0[2] }
        try connection.registerRealFunction("positive", argumentCount: 1) { $0[0] > 0 ? $0[0] : nil }
        #expect(try connection.scalar("SELECT weighted(2, 1.5, 0.25)") == .real(3.25))
        #expect(try connection.scalar("SELECT weighted(2, NULL, 1)") == .null)
        #expect(try connection.scalar("SELECT positive(-1)") == .null)
        #expect(try connection.scalar("SELECT positive(52.5106)") == .real(52.5106))
    }
}
