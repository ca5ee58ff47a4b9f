import CSQLite

/// SQL functions written in Swift, so a whole-table update runs as one statement inside SQLite.
extension SQLiteConnection {
    private final class TextFunction {
        let body: ([String?]) -> String?
        init(_ body: @escaping ([String?]) -> String?) { self.body = body }
    }

    /// Registers `name(…)`: text (or NULL) arguments in, text or NULL out. The connection owns the closure.
    package func registerTextFunction(
        _ name: String, argumentCount: Int32, _ body: @escaping ([String?]) -> String?
    ) throws {
        let box = Unmanaged.passRetained(TextFunction(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                guard let context, let userData = sqlite3_user_data(context) else { return }
                let function = Unmanaged<TextFunction>.fromOpaque(userData).takeUnretainedValue()
                var arguments: [String?] = []
                for index in 0..<Int(count) {
                    guard let value = values?[index], sqlite3_value_type(value) != SQLITE_NULL,
                        let text = sqlite3_value_text(value)
                    else {
                        arguments.append(nil)
                        continue
                    }
                    arguments.append(String(cString: text))
                }
                if let result = function.body(arguments) {
                    sqlite3_result_text(context, result, -1, SQLITE_TRANSIENT)
                } else {
                    sqlite3_result_null(context)
                }
            }, nil, nil,
            { userData in
                if let userData { Unmanaged<TextFunction>.fromOpaque(userData).release() }
            })
        guard code == SQLITE_OK else { throw error(code, sql: nil) }
    }
}

extension SQLiteConnection {
    private final class IntegerFunction {
        let body: (Int64) -> Int64
        init(_ body: @escaping (Int64) -> Int64) { self.body = body }
    }

    /// Registers `name(x)`: an integer in, an integer out, NULL for NULL; without the text conversions of
    /// `registerTextFunction`, for a function called on every row of a large table.
    package func registerIntegerFunction(_ name: String, _ body: @escaping (Int64) -> Int64) throws {
        let box = Unmanaged.passRetained(IntegerFunction(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, _, values in
                guard let context, let userData = sqlite3_user_data(context), let value = values?[0],
                    sqlite3_value_type(value) != SQLITE_NULL
                else {
                    if let context { sqlite3_result_null(context) }
                    return
                }
                let function = Unmanaged<IntegerFunction>.fromOpaque(userData).takeUnretainedValue()
                sqlite3_result_int64(context, function.body(sqlite3_value_int64(value)))
            }, nil, nil,
            { userData in
                if let userData { Unmanaged<IntegerFunction>.fromOpaque(userData).release() }
            })
        guard code == SQLITE_OK else { throw error(code, sql: nil) }
    }
}

extension SQLiteConnection {
    private final class RealFunction {
        let body: (UnsafeBufferPointer<Double>) -> Double?
        init(_ body: @escaping (UnsafeBufferPointer<Double>) -> Double?) { self.body = body }
    }

    /// Registers `name(…)`: numbers in (read as doubles), a number or NULL out; NULL when any argument is NULL.
    /// For a function called on every row of a large table, without text conversions.
    package func registerRealFunction(
        _ name: String, argumentCount: Int32, _ body: @escaping (UnsafeBufferPointer<Double>) -> Double?
    ) throws {
        let box = Unmanaged.passRetained(RealFunction(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                guard let context, let userData = sqlite3_user_data(context), let values else { return }
                let function = Unmanaged<RealFunction>.fromOpaque(userData).takeUnretainedValue()
                let result = withUnsafeTemporaryAllocation(of: Double.self, capacity: Int(count)) {
                    arguments -> Double? in
                    for index in 0..<Int(count) {
                        guard let value = values[index], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
                        arguments[index] = sqlite3_value_double(value)
                    }
                    return function.body(UnsafeBufferPointer(arguments))
                }
                if let result { sqlite3_result_double(context, result) } else { sqlite3_result_null(context) }
            }, nil, nil,
            { userData in
                if let userData { Unmanaged<RealFunction>.fromOpaque(userData).release() }
            })
        guard code == SQLITE_OK else { throw error(code, sql: nil) }
    }
}
