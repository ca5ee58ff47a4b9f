import Glibc
import HealthModel

/// A plain file read sequentially with `read(2)`.
public final class FileStream: ByteStream {
    private let descriptor: Int32
    public let path: String
    public let expectedSize: UInt64?

    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ImportError(.input, "cannot open file: \(SystemError.last)", file: path)
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            expectedSize = UInt64(info.st_size)
        } else {
            expectedSize = nil
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw ImportError(.input, "read failed: \(SystemError.last)", file: path)
        }
    }
}
