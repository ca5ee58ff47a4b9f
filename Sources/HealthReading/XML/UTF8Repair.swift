/// Replaces bytes that are not valid UTF-8 with `?`, one for one, so one damaged byte in a third-party
/// source name does not abort a multi-gigabyte import (libxml2 stops at the first invalid sequence). The
/// replacement keeps every byte offset, so line and column numbers of later errors stay those of the file.
/// Replaced bytes are counted and reported.
///
/// Works on chunks: a sequence cut by the end of a chunk is held back and completed with the next one.
struct UTF8Repair {
    private(set) var replacedBytes = 0
    private var carry: [UInt8] = []

    mutating func process(
        _ chunk: UnsafeMutableRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        if !carry.isEmpty {
            // Complete the sequence the last chunk ended in.
            let length = Self.sequenceLength(carry[0])
            while carry.count < length, start < bytes.count, Self.isContinuation(bytes[start]) {
                carry.append(bytes[start])
                start += 1
            }
            if carry.count < length && start == bytes.count { return }  // still incomplete: wait for more
            var pending = carry
            carry = []
            let valid = pending.count == length && pending.withUnsafeBufferPointer { Self.isValid($0, at: 0, length) }
            if !valid {
                replacedBytes += pending.count
                for index in pending.indices { pending[index] = UInt8(ascii: "?") }
            }
            try pending.withUnsafeBytes { try emit($0) }
        }
        let end = repair(bytes, from: start)
        if end > start { try emit(UnsafeRawBufferPointer(rebasing: chunk[start..<end])) }
    }

    /// Bytes held back at the end of the input can never complete: they are invalid.
    mutating func finish(emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !carry.isEmpty else { return }
        replacedBytes += carry.count
        let replaced = [UInt8](repeating: UInt8(ascii: "?"), count: carry.count)
        carry = []
        try replaced.withUnsafeBytes { try emit($0) }
    }

    /// Repairs in place from `start`; returns where the bytes ready to pass on end (a cut sequence after it
    /// is moved to `carry`).
    private mutating func repair(_ bytes: UnsafeMutableBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        var index = start
        let raw = UnsafeRawPointer(base)
        while index < count {
            // Fast path: eight ASCII bytes at a time.
            if index + 8 <= count,
                raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length = Self.sequenceLength(lead)
            if length == 0 {
                base[index] = UInt8(ascii: "?")
                replacedBytes += 1
                index += 1
                continue
            }
            if index + length > count {
                // Possibly cut by the chunk's end: hold it back if what is there could still be valid.
                var couldComplete = true
                for offset in 1..<(count - index) where !Self.isContinuation(base[index + offset]) {
                    couldComplete = false
                }
                if couldComplete {
                    carry = Array(UnsafeBufferPointer(start: base + index, count: count - index))
                    return index
                }
            } else if Self.isValid(UnsafeBufferPointer(bytes), at: index, length) {
                index += length
                continue
            }
            base[index] = UInt8(ascii: "?")
            replacedBytes += 1
            index += 1
        }
        return count
    }

    /// Expected length of a sequence from its first byte; 0 for a byte that cannot start one.
    static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 0
        }
    }

    static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ length: Int) -> Bool {
        let lead = bytes[index]
        for offset in 1..<length where !isContinuation(bytes[index + offset]) { return false }
        let second = bytes[index + 1]
        switch lead {
        case 0xE0: return second >= 0xA0
        case 0xED: return second <= 0x9F
        case 0xF0: return second >= 0x90
        case 0xF4: return second <= 0x8F
        default: return true
        }
    }
}
