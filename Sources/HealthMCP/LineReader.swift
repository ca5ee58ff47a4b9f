import Foundation

/// Lines from a file descriptor (the server's stdin), read in chunks with `read(2)`. A line longer than
/// `maximumLength` is not kept whole: it is returned as `.tooLong` once its end is read, so a client that sends a
/// gigabyte without a newline costs the server nothing but the time to read it.
package struct LineReader {
    package enum Line: Equatable {
        case text([UInt8])
        case tooLong(length: Int)
    }

    private let descriptor: Int32
    private let maximumLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var discarding = 0
    private var atEnd = false

    package init(descriptor: Int32, maximumLength: Int) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
    }

    /// The next line without its `\n` (and a `\r` before it); nil at the end of the input. A last line without a
    /// newline counts as a line.
    package mutating func next() -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let length = discarding + end - start
                let line = length > maximumLength ? [] : Array(buffer[start..<end])
                start = newline + 1
                discarding = 0
                return length > maximumLength ? .tooLong(length: length) : .text(line)
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            if buffer.count > maximumLength {
                discarding += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
            if atEnd {
                guard !buffer.isEmpty || discarding > 0 else { return nil }
                defer {
                    buffer.removeAll()
                    discarding = 0
                }
                return discarding > 0 ? .tooLong(length: discarding + buffer.count) : .text(buffer)
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }
}
