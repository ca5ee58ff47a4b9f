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
