import Testing

@testable import HealthDeidentify

/// libcrypto as the copy calls it (SystemCrypto.swift): SHA-256 against FIPS 180-4's examples (NIST CSRC),
/// HMAC-SHA256 against RFC 4231's test cases, SipHash-2-4 against its paper's.
@Suite struct SHA256Tests {
    @Test func nistExamples() {
        #expect(
            SHA256.hash(Array("abc".utf8)).hexText == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(SHA256.hash([]).hexText == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexText
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hexText
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func rfc4231TestCases() {
        func hex(_ text: String) -> [UInt8] {
            var bytes: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                bytes.append(UInt8(text[index..<next], radix: 16)!)
                index = next
            }
            return bytes
        }
        let cases: [([UInt8], [UInt8], String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array(
                    ("This is a test using a larger than block-size key and a larger than block-size data. The key "
                        + "needs to be hashed before being used by the HMAC algorithm.").utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ]
        for (key, message, expected) in cases {
            #expect(HMACSHA256(key: key).authenticate(message).hexText == expected)
        }
        // Test case 5: the output truncated to 128 bits.
        #expect(
            HMACSHA256(key: [UInt8](repeating: 0x0c, count: 20)).authenticate(Array("Test With Truncation".utf8))
                .prefix(16).hexText == "a3b6167473100ee06e0c796c2955552b")
    }

    /// SipHash-2-4 against the paper's example (Appendix A) and the reference implementation's first vector.
    @Test func sipHashVectors() {
        let hasher = SipHash24(key: Array(0..<16))
        #expect(hasher.hash(Array(0..<15)) == 0xa129_ca61_49be_45e5)
        #expect(hasher.hash([]) == 0x726f_db47_dd0e_0e31)
        #expect(hasher.hash(Int64(0x0706_0504_0302_0100)) == hasher.hash(Array(0..<8)))
    }
}
