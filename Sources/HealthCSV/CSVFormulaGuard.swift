/// CSV formula injection: Excel and LibreOffice run a cell that starts with `=`, `+`, `-` or `@` as a formula
/// when they open a CSV file (LibreOffice 7.4 turned `=1+2` into a formula in our tests). Metadata values and
/// names come from third-party apps, so a value like `=HYPERLINK("http://…","Click")` or a DDE payload must
/// not reach a spreadsheet as a formula.
///
/// The spreadsheet flavour prefixes such text cells with `'`, the usual mitigation (OWASP): the cell then shows
/// as text, with the apostrophe visible. Tab and CR are included because Excel skips them before deciding.
/// Only text is affected: INTEGER and REAL values are written as numbers and are never guarded, and a text
/// value that is itself a plain number (`-5`, `+3.25`) or a UTC offset (`-03:30`, every row of an export made
/// in the Americas) is left alone: the spreadsheet reads it as a number or a time, and neither can call
/// anything. The standard flavour never alters a cell.
enum CSVFormulaGuard {
    /// Whether the text in `bytes` would be taken for a formula.
    static func needsGuard(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return false }
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "@"), 0x09, 0x0D: return true
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return !isPlainNumber(bytes) && !isOffset(bytes)
        default: return false
        }
    }

    /// `±hh:mm`, as the database stores offsets.
    static func isOffset(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == 6, bytes[3] == UInt8(ascii: ":") else { return false }
        return [1, 2, 4, 5].allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
    }

    /// `[+-]digits[.digits][e[+-]digits]`: what a spreadsheet reads as a number, never as a formula.
    static func isPlainNumber(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        func isDigit(_ at: Int) -> Bool { at < count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while isDigit(index) {
            index += 1
            digits += 1
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while isDigit(index) {
                index += 1
                digits += 1
            }
        }
        guard digits > 0 else { return false }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        return index == count
    }
}
