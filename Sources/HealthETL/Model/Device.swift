/// An `HKDevice` description split into its fields.
///
/// The export writes `<<HKDevice: 0x282e3a260>, name:iPhone, manufacturer:Apple Inc., model:iPhone,
/// hardware:iPhone10,4, software:12.3>`. The `0x…` address changes on every record, so it is dropped; values
/// may contain `, ` (`hardware:Watch6,7`), so fields are found by their known keys, not by splitting.
public struct Device: Equatable, Hashable, Sendable {
    public var name: String?
    public var manufacturer: String?
    public var model: String?
    public var hardware: String?
    public var software: String?
    public var firmware: String?
    public var localIdentifier: String?
    public var udiDeviceIdentifier: String?
    /// The description without its address: a stable identity for the device.
    public var key: String

    static let fieldKeys = [
        "name", "manufacturer", "model", "hardware", "software", "firmware", "localIdentifier",
        "UDIDeviceIdentifier",
    ]

    /// Removes the `<<HKDevice: 0x…>, ` prefix and the final `>`; other text is returned as it is.
    static func maskedDescription(_ text: String) -> String {
        guard text.hasPrefix("<<HKDevice:"), let close = text.firstIndex(of: ">") else { return text }
        var rest = text[text.index(after: close)...]
        if rest.hasPrefix(", ") { rest = rest.dropFirst(2) }
        if rest.hasSuffix(">") { rest = rest.dropLast() }
        return String(rest)
    }

    public init(description text: String) {
        let masked = Self.maskedDescription(text)
        key = masked
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
            let stored: String? = value.isEmpty || value == "(null)" ? nil : value
            switch start.key {
            case "name": name = stored
            case "manufacturer": manufacturer = stored
            case "model": model = stored
            case "hardware": hardware = stored
            case "software": software = stored
            case "firmware": firmware = stored
            case "localIdentifier": localIdentifier = stored
            default: udiDeviceIdentifier = stored
            }
        }
    }
}
