/// The JSON grammar (RFC 8259) checked over bytes, for a file held whole (a FHIR resource): one object or array
/// (as `JSONSerialization` wants it) with optional whitespace around it, by `JSONParser`'s rules without
/// building anything. UTF-8 validity is left to the caller (`String(validating:)`). Nesting deeper than
/// `maximumDepth` counts as invalid: no real document nests that deep.
package enum JSONGrammar {
    package static let maximumDepth = 512

    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var first = 0
        while first < bytes.count,
            bytes[first] == 0x20 || bytes[first] == 0x0A || bytes[first] == 0x0D || bytes[first] == 0x09
        {
            first += 1
        }
        guard first < bytes.count, bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[") else {
            return false
        }
        return JSONParser.check(bytes, maximumDepth: maximumDepth) == nil
    }
}
