import CCrypto
import Glibc

// The de-identified copy's primitives come from the system's OpenSSL (libcrypto 3), never from code of our own:
// SHA-256, HMAC-SHA256 (the pseudonyms) and SipHash-2-4 (a keyed value on every row). This is the only file that
// imports libcrypto. The vectors of FIPS 180-4, RFC 4231 and the SipHash paper are its tests.

/// SHA-256 (FIPS 180-4) of a message.
package enum SHA256 {
    package static func hash(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = message.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "libcrypto's SHA-256 failed")
        return Array(digest.prefix(32))
    }
}

/// A MAC of libcrypto keyed once: each message is computed on a duplicate of the keyed template, so the key's
/// set-up (HMAC's padded key, SipHash's state) is paid once and calls never share mutable state.
private final class KeyedMAC: @unchecked Sendable {
    // Sendable: `template` is written only in init; every call duplicates it and works on its own copy.
    private let template: OpaquePointer
    private let outputBytes: Int

    enum Algorithm {
        case hmacSHA256
        case sipHash64
    }

    init(_ algorithm: Algorithm, key: [UInt8]) {
        let name = algorithm == .hmacSHA256 ? "HMAC" : "SIPHASH"
        guard let mac = EVP_MAC_fetch(nil, name, nil), let context = EVP_MAC_CTX_new(mac) else {
            fatalError("libcrypto has no \(name)")
        }
        EVP_MAC_free(mac)
        outputBytes = algorithm == .hmacSHA256 ? 32 : 8
        // The parameters point at `digest` and `size`, which live until EVP_MAC_init has read them.
        let digest = strdup("SHA256")!
        defer { free(digest) }
        var size = outputBytes
        let ok = withUnsafeMutablePointer(to: &size) { size in
            let parameters =
                algorithm == .hmacSHA256
                ? [OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_construct_end()]
                : [OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, size), OSSL_PARAM_construct_end()]
            return key.withUnsafeBufferPointer { EVP_MAC_init(context, $0.baseAddress, $0.count, parameters) }
        }
        precondition(ok == 1, "libcrypto refused the \(name) key")
        template = context
    }

    deinit { EVP_MAC_CTX_free(template) }

    func authenticate(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        guard let context = EVP_MAC_CTX_dup(template) else { fatalError("libcrypto is out of memory") }
        defer { EVP_MAC_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: outputBytes)
        var length = 0
        let ok =
            EVP_MAC_update(context, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) == 1
            && EVP_MAC_final(context, &output, &length, outputBytes) == 1
        precondition(ok && length == outputBytes, "libcrypto's MAC failed")
        return output
    }
}

/// HMAC-SHA256 (RFC 2104) with one key.
package struct HMACSHA256: Sendable {
    private let mac: KeyedMAC

    package init(key: [UInt8]) {
        mac = KeyedMAC(.hmacSHA256, key: key)
    }

    package func authenticate(_ message: [UInt8]) -> [UInt8] { message.withUnsafeBytes { mac.authenticate($0) } }

    package func authenticate(_ text: String) -> [UInt8] { authenticate(Array(text.utf8)) }
}

/// SipHash-2-4 (Aumasson and Bernstein, 2012) with a 64-bit output: a keyed pseudorandom function for short
/// inputs, used where a keyed value is computed for every row of a large table (the sample fingerprints), several
/// times cheaper than an HMAC-SHA256. Its 128-bit key is derived from the user's key by HMAC, so it is as secret.
package struct SipHash24: Sendable {
    private let mac: KeyedMAC

    package init(key: [UInt8]) {
        precondition(key.count >= 16, "SipHash needs a 128-bit key")
        mac = KeyedMAC(.sipHash64, key: Array(key.prefix(16)))
    }

    /// The 64-bit value, read little-endian from libcrypto's output as the reference implementation returns it.
    package func hash(_ message: [UInt8]) -> UInt64 {
        message.withUnsafeBytes { littleEndianWord(mac.authenticate($0)) }
    }

    /// The hash of one integer's eight little-endian bytes.
    package func hash(_ value: Int64) -> UInt64 {
        withUnsafeBytes(of: value.littleEndian) { littleEndianWord(mac.authenticate($0)) }
    }

    private func littleEndianWord(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
}

extension Sequence<UInt8> {
    /// Lower-case hexadecimal.
    package var hexText: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
