import Foundation

/// Talking to a server the test started on 127.0.0.1 (a real Datasette), without URLSession.
package enum LocalHTTP {
    package struct SocketError: Error, CustomStringConvertible {
        package let description: String

        init(operation: String) { description = "cannot \(operation): \(String(cString: strerror(errno)))" }
    }

    /// A TCP port nobody listens on now.
    package static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw SocketError(operation: "bind to 127.0.0.1:0") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A plain HTTP/1.0 GET on a blocking socket (with a receive timeout): no URLSession, whose callbacks can
    /// wait long behind a busy test runner. The server answers HTTP/1.0 without chunking and closes.
    package static func fetch(port: Int, _ path: String) throws -> (status: Int, body: Data) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return (0, Data()) }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else {
            return (0, Data())
        }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response.append(contentsOf: buffer[0..<count])
        }
        guard let end = response.range(of: Data("\r\n\r\n".utf8)) else { return (0, Data()) }
        let statusLine = String(decoding: response[..<end.lowerBound], as: UTF8.self).split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        return (status, Data(response[end.upperBound...]))
    }
}
