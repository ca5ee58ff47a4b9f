import HealthModel

/// Cleans the raw bytes of an export XML before libxml2 sees them.
///
/// 1. The internal DTD is cut out. The iOS 16 exporter wrote one that is not well formed, and no version's
///    DTD matches the content, so it is useless and sometimes fatal; removing it also means no entity can
///    be declared, which closes the door on entity expansion ("billion laughs") and external entities.
///    The DOCTYPE is replaced by its own newlines so libxml2's line numbers stay those of the file.
/// 2. XML-illegal control characters (`[\x00-\x08\x0B\x0C\x0E-\x1F]`) are removed: third-party apps put
///    them in source names, and one such byte must not abort a 3 GB import. They are counted.
/// 3. Bytes that are not valid UTF-8 become `?` (`UTF8Repair`), for the same reason. Also counted.
/// 4. `device` attributes lose their escaped brackets and address (`DeviceAttributeRewrite`), for speed.
struct XMLInputFilter {
    /// The prolog is held until the DOCTYPE (or the root element) is found; real ones are ~7 KB.
    static let maximumPrologSize = 4 * 1024 * 1024

    private(set) var removedControlCharacters = 0
    private var utf8 = UTF8Repair()
    private var prolog: [UInt8] = []
    private var inBody = false

    var replacedInvalidUTF8Bytes: Int { utf8.replacedBytes }

    /// Filters `chunk` in place (it may shrink) and passes what is ready to `emit`.
    mutating func process(
        _ chunk: UnsafeMutableRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let kept = stripControlCharacters(chunk)
        DeviceAttributeRewrite.apply(UnsafeMutableBufferPointer(rebasing: chunk.bindMemory(to: UInt8.self)[0..<kept]))
        var repair = utf8
        try repair.process(UnsafeMutableRawBufferPointer(rebasing: chunk[0..<kept])) { try passOn($0, emit) }
        utf8 = repair
    }

    private mutating func passOn(
        _ cleaned: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if inBody {
            try emit(cleaned)
            return
        }
        prolog.append(contentsOf: cleaned)
        switch Self.locateDoctype(prolog) {
        case .needMoreData:
            if prolog.count > Self.maximumPrologSize {
                throw ImportError(
                    .input, "the document type declaration at the start of the XML never ends",
                    hint: "the file is damaged; re-export from the Health app")
            }
        case .none:
            try flushProlog(emit)
        case .found(let range):
            for index in range where prolog[index] != UInt8(ascii: "\n") {
                prolog[index] = UInt8(ascii: " ")
            }
            try flushProlog(emit)
        }
    }

    /// Passes on a prolog that never reached a decision (a tiny or empty document).
    mutating func finish(emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        var repair = utf8
        try repair.finish { try passOn($0, emit) }
        utf8 = repair
        if !inBody { try flushProlog(emit) }
    }

    private mutating func flushProlog(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        inBody = true
        let held = prolog
        prolog = []
        try held.withUnsafeBytes { try emit($0) }
    }

    private mutating func stripControlCharacters(_ chunk: UnsafeMutableRawBufferPointer) -> Int {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var write = 0
        var read = 0
        let count = bytes.count
        // Fast path: most chunks have no control character at all. Eight bytes at a time: a word with no
        // byte below 0x20 (tab, newline and carriage return are below it too) is skipped whole.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while read + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: read, as: UInt64.self)
                let below20 = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
                if below20 != 0 {
                    var hasIllegal = false
                    for offset in read..<(read + 8) where Self.isIllegal(base[offset]) {
                        hasIllegal = true
                        break
                    }
                    if hasIllegal { break }
                }
                read += 8
            }
        }
        while read < count, !Self.isIllegal(bytes[read]) { read += 1 }
        if read == count { return count }
        write = read
        while read < count {
            let byte = bytes[read]
            if Self.isIllegal(byte) {
                removedControlCharacters += 1
            } else {
                bytes[write] = byte
                write += 1
            }
            read += 1
        }
        return write
    }

    @inline(__always)
    private static func isIllegal(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    enum DoctypeSearch: Equatable {
        case needMoreData
        case none
        case found(Range<Int>)
    }

    /// Finds `<!DOCTYPE … >` (with or without an internal subset `[ … ]`) before the root element.
    static func locateDoctype(_ bytes: [UInt8]) -> DoctypeSearch {
        let doctype = Array("<!DOCTYPE".utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { return .needMoreData }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "?") || (next == UInt8(ascii: "!") && !bytes.starts(with: doctype, at: index)) {
                // A processing instruction or a comment: skip to its end.
                guard let end = bytes.firstIndex(of: UInt8(ascii: ">"), from: index + 2) else { return .needMoreData }
                if next == UInt8(ascii: "!"), bytes.starts(with: Array("<!--".utf8), at: index) {
                    guard let close = bytes.firstRange(of: Array("-->".utf8), from: index + 4) else {
                        return .needMoreData
                    }
                    index = close.upperBound
                } else {
                    index = end + 1
                }
                continue
            }
            if next == UInt8(ascii: "!") {
                if index + doctype.count > bytes.count { return .needMoreData }
                return doctypeEnd(bytes, from: index).map { .found(index..<$0) } ?? .needMoreData
            }
            return .none  // the root element comes first
        }
        return .needMoreData
    }

    /// The end (exclusive) of a DOCTYPE starting at `start`: the first `>` unless a `[` comes before it, in
    /// which case the first `]` followed (after optional spaces) by `>`. Quoted system ids are skipped.
    private static func doctypeEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 9
        var quote: UInt8? = nil
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            } else if byte == UInt8(ascii: "[") {
                var scan = index + 1
                while scan < bytes.count {
                    if bytes[scan] == UInt8(ascii: "]") {
                        var after = scan + 1
                        while after < bytes.count,
                            bytes[after] == 0x20 || bytes[after] == 0x0A
                                || bytes[after] == 0x0D || bytes[after] == 0x09
                        {
                            after += 1
                        }
                        if after < bytes.count, bytes[after] == UInt8(ascii: ">") { return after + 1 }
                        if after == bytes.count { return nil }
                    }
                    scan += 1
                }
                return nil
            }
            index += 1
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    fileprivate func starts(with prefix: [UInt8], at offset: Int) -> Bool {
        guard offset + prefix.count <= count else { return false }
        for index in 0..<prefix.count where self[offset + index] != prefix[index] { return false }
        return true
    }

    fileprivate func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        var index = start
        while index < count {
            if self[index] == byte { return index }
            index += 1
        }
        return nil
    }

    fileprivate func firstRange(of needle: [UInt8], from start: Int) -> Range<Int>? {
        var index = start
        while index + needle.count <= count {
            if starts(with: needle, at: index) { return index..<(index + needle.count) }
            index += 1
        }
        return nil
    }
}
