import Glibc
import HealthModel

/// The secret every pseudonym, the date shift and the route angle are derived from (HMAC-SHA256). The same key
/// gives the same copy next night, so re-runs and joins line up; without it nobody can recompute a pseudonym
/// from a guessed name or serial number.
package struct DeidentificationKey: Sendable {
    /// Fewer bytes than this are refused: a key that can be guessed makes every pseudonym reversible.
    package static let minimumBytes = 32
    /// A key file is small; anything larger is the wrong file.
    package static let maximumBytes = 4096

    private let mac: HMACSHA256
    /// Mixed into what depends on the person (the date shift), so two people's copies shift differently.
    package let person: String?

    package init(bytes: [UInt8], person: String? = nil) throws {
        guard bytes.count >= Self.minimumBytes else {
            throw ImportError(
                .usage, "the key is \(bytes.count) bytes; at least \(Self.minimumBytes) are needed",
                hint: "make one with: head -c 32 /dev/urandom > secret.key && chmod 600 secret.key")
        }
        mac = HMACSHA256(key: bytes)
        self.person = person
    }

    /// The key in the file at `path`: refused when missing, readable by anyone but its owner (a key others can
    /// read protects nothing; as ssh does with private keys), shorter than `minimumBytes` or implausibly long.
    package static func load(path: String, person: String? = nil) throws -> DeidentificationKey {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ImportError(.usage, "cannot read the key file: \(SystemError.last)", file: path)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ImportError(.usage, "the key file is not a regular file", file: path)
        }
        guard status.st_mode & 0o077 == 0 else {
            throw ImportError(
                .usage, "the key file can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8)))",
                file: path, hint: "chmod 600 \(path)")
        }
        guard status.st_size <= maximumBytes else {
            throw ImportError(.usage, "the key file holds \(status.st_size) bytes: not a key", file: path)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportError(.usage, "cannot read the key file: \(SystemError.last)", file: path)
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                throw ImportError(.usage, "cannot read the key file: \(SystemError.last)", file: path)
            }
            if got == 0 { break }
            count += got
        }
        do {
            return try DeidentificationKey(bytes: Array(bytes.prefix(count)), person: person)
        } catch var error as ImportError {
            error.file = path
            throw error
        }
    }

    /// HMAC of `value` under a label naming its class, so equal values of different classes differ.
    package func digest(_ label: String, _ value: String) -> [UInt8] {
        mac.authenticate(Array(label.utf8) + [0] + Array(value.utf8))
    }

    /// A keyed pseudonym: `<prefix>-` and 16 hex digits (64 bits: unique among one person's identifiers).
    package func pseudonym(_ label: String, _ value: String, prefix: String) -> String {
        prefix + "-" + digest(label, value).prefix(8).hexText
    }

    /// A SipHash key of its own for a label, derived from this key: for values computed on every row.
    package func rowHasher(_ label: String) -> SipHash24 {
        SipHash24(key: Array(digest("row hash key", label).prefix(16)))
    }

    /// What identifies the key without revealing it: an HMAC of a fixed label, never the key.
    package var fingerprint: String { digest("healthetl key fingerprint", "").prefix(8).hexText }

    /// The person's pseudonym (the PostgreSQL `person` of a cohort), when a person was named.
    package var personPseudonym: String? { person.map { pseudonym("person", $0, prefix: "person") } }

    /// The date shift in whole weeks: 1 to 104 weeks back or forward, never zero, the same for one key (and
    /// person) every night.
    package var shiftWeeks: Int {
        let bytes = digest("date shift in weeks", person ?? "")
        let magnitude = Int(UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 104 + 1
        return bytes[2] & 1 == 0 ? -magnitude : magnitude
    }

    /// The angle in radians a route is turned by under `--routes relative`, one per route.
    package func routeAngle(_ routeKey: String) -> Double {
        let bytes = digest("route angle", routeKey)
        let fraction = Double(
            UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3]))
        return fraction / 4_294_967_296 * 2 * Double.pi
    }
}
