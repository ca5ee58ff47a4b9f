/// Why a JSON text could not be read, and where: one error for every reader of the grammar (the tree parser,
/// the FHIR check, the pipeline files, the feed's streaming scanner), so each names the place the same way.
package struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// The text is not JSON (RFC 8259).
        case invalid
        /// The text is JSON, beyond a limit the reader sets (nesting, an element's size): refused, not misread.
        case tooLarge
    }

    package var kind: Kind
    package var message: String
    /// 1-based; a line ends at LF.
    package var line: Int
    /// 1-based, in characters (Unicode scalars), as an editor counts them.
    package var column: Int
    /// Bytes from the start of the text (a byte-order mark included).
    package var offset: Int

    package init(_ kind: Kind = .invalid, _ message: String, line: Int, column: Int, offset: Int) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The message as a user reads it after `file:line:column:`.
    package var summary: String { kind == .invalid ? "invalid JSON: \(message)" : message }

    package var description: String { "\(message) at line \(line), column \(column)" }
}
