import HealthModel

/// The attributes most elements share (`type`, source, dates), read in one pass.
struct CommonAttributes {
    /// Bytes, valid during the element's start event: a record interns them into the batch's vocabulary,
    /// other elements take them as `String`s (`typeString`).
    var type: XMLBytes?
    var source: SampleSource
    var unit: XMLBytes?
    var creationDate: Timestamp?
    var startDate: Timestamp?
    var endDate: Timestamp?
    var rawValue: XMLBytes?
    var flags: SampleFlags = []
    /// Attributes beyond the common ones: on a `Record`, the iOS 8/9 format's metadata and aggregates
    /// (`ExportDecoder+Legacy.swift`). Modern records have none, so their path never looks at them twice.
    var hasOtherAttributes = false
    /// The source came from the iOS 8/9 format's `source` attribute.
    var isLegacy = false
}

extension ExportDecoder {
    func commonAttributes(_ attributes: XMLAttributes) -> CommonAttributes {
        var type: XMLBytes?
        var name: String?
        var version: String?
        var device: Device?
        var unit: XMLBytes?
        var creation: Timestamp?
        var start: Timestamp?
        var end: Timestamp?
        var value: XMLBytes?
        var flags: SampleFlags = []
        var hasOtherAttributes = false
        var isLegacy = false
        for index in 0..<attributes.count {
            let bytes = attributes.value(index)
            switch attributeNameLookup(attributes, index) {
            case .type: type = bytes
            case .sourceName: name = nameString(bytes)
            case .source:
                name = nameString(bytes)
                isLegacy = true
            case .sourceVersion: version = versionString(bytes)
            case .device: device = sources.device(bytes)
            case .unit: unit = bytes
            case .creationDate: creation = parseDate(bytes, &flags)
            case .startDate: start = parseDate(bytes, &flags)
            case .endDate: end = parseDate(bytes, &flags)
            case .value: value = bytes
            default: hasOtherAttributes = true
            }
        }
        if name == nil { flags.insert(.missingSource) }
        if start == nil { flags.insert(.missingStartDate) }
        if end == nil { flags.insert(.missingEndDate) }
        if let start, let end, start.seconds > end.seconds { flags.insert(.startAfterEnd) }
        let source = sources.source(name: name ?? "", version: version, device: device)
        return CommonAttributes(
            type: type, source: source, unit: unit, creationDate: creation, startDate: start, endDate: end,
            rawValue: value, flags: flags, hasOtherAttributes: hasOtherAttributes, isLegacy: isLegacy)
    }

    private func parseDate(_ bytes: XMLBytes, _ flags: inout SampleFlags) -> Timestamp? {
        if let date = dates.parse(bytes) { return date }
        flags.insert(.badDate)
        return nil
    }

    func string(_ attributes: XMLAttributes, _ wanted: ExportAttribute) -> String? {
        for index in 0..<attributes.count where attributeNameLookup(attributes, index) == wanted {
            return XMLText.decode(attributes.value(index))
        }
        return nil
    }

    func timestamp(_ attributes: XMLAttributes, _ wanted: ExportAttribute) -> Timestamp? {
        for index in 0..<attributes.count where attributeNameLookup(attributes, index) == wanted {
            return Timestamp.parse(attributes.value(index))
        }
        return nil
    }

    func double(_ attributes: XMLAttributes, _ wanted: ExportAttribute) -> Double? {
        for index in 0..<attributes.count where attributeNameLookup(attributes, index) == wanted {
            return NumberParsing.parseDouble(attributes.value(index))
        }
        return nil
    }

    /// Every attribute as text, for the rare elements whose attribute set varies across iOS versions.
    func allAttributes(_ attributes: XMLAttributes) -> [(name: String, value: String)] {
        (0..<attributes.count).map {
            (String(decoding: attributes.name($0), as: UTF8.self), XMLText.decode(attributes.value($0)))
        }
    }
}
