import Glibc

/// A C library failure in words, for one-line errors: `SystemError.describe(errno)` → "No such file or
/// directory".
package enum SystemError {
    package static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The current `errno` in words; read it before any other call can change it.
    package static var last: String { describe(errno) }
}
