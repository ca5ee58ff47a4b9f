/// An `HKDevice` description split into its fields.
///
/// The export writes `<<HKDevice: 0x282e3a260>, name:iPhone, manufacturer:Apple Inc., model:iPhone,
/// hardware:iPhone10,4, software:12.3>`. The `0x…` address changes on every record, so it is dropped; values
/// may contain `, ` (`hardware:Watch6,7`), so fields are found by their known keys, not by splitting.
///
/// A class, not a struct: millions of records share a handful of devices, and a struct of nine strings would be
/// retained and released field by field every time a record is built or compared.
public final class Device: Hashable, Sendable {
    public let name: String?
    public let manufacturer: String?
    public let model: String?
    public let hardware: String?
    public let software: String?
    public let firmware: String?
    public let localIdentifier: String?
    public let udiDeviceIdentifier: String?
    /// The description without its address: a stable identity for the device.
    public let key: String

    public static func == (lhs: Device, rhs: Device) -> Bool { lhs === rhs || lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    static let fieldKeys = [
        "name", "manufacturer", "model", "hardware", "software", "firmware", "localIdentifier",
        "UDIDeviceIdentifier",
    ]

    /// Removes the `<<HKDevice: 0x…>, ` prefix and the final `>`; other text is returned as it is.
    static func maskedDescription(_ raw: String) -> String {
        // DeviceAttributeRewrite leaves the fields behind leading spaces, brackets and address removed.
        let text = raw.hasPrefix(" ") ? String(raw.drop { $0 == " " }) : raw
        guard text.hasPrefix("<<HKDevice:"), let close = text.firstIndex(of: ">") else { return text }
        var rest = text[text.index(after: close)...]
        if rest.hasPrefix(", ") { rest = rest.dropFirst(2) }
        if rest.hasSuffix(">") { rest = rest.dropLast() }
        return String(rest)
    }

    public convenience init(description text: String) {
        let masked = Self.maskedDescription(text)
        var fields: [String: String] = [:]
        // Find where each known key starts: at the beginning, or right after ", ".
        var starts: [(index: String.Index, key: String)] = []
        var index = masked.startIndex
        while index < masked.endIndex {
            let atBoundary =
                index == masked.startIndex || masked[..<index].hasSuffix(", ")
            if atBoundary {
                for fieldKey in Self.fieldKeys where masked[index...].hasPrefix(fieldKey + ":") {
                    starts.append((index, fieldKey))
                    break
                }
            }
            index = masked.index(after: index)
        }
        for (offset, start) in starts.enumerated() {
            let valueStart = masked.index(start.index, offsetBy: start.key.count + 1)
            var valueEnd = offset + 1 < starts.count ? starts[offset + 1].index : masked.endIndex
            if offset + 1 < starts.count {
                valueEnd = masked.index(valueEnd, offsetBy: -2)  // the ", " before the next key
            }
            let value = valueStart <= valueEnd ? String(masked[valueStart..<valueEnd]) : ""
            if !value.isEmpty, value != "(null)" { fields[start.key] = value }
        }
        self.init(key: masked, fields: fields)
    }

    private init(key: String, fields: [String: String]) {
        self.key = key
        name = fields["name"]
        manufacturer = fields["manufacturer"]
        model = fields["model"]
        hardware = fields["hardware"]
        software = fields["software"]
        firmware = fields["firmware"]
        localIdentifier = fields["localIdentifier"]
        udiDeviceIdentifier = fields["UDIDeviceIdentifier"]
    }
}
