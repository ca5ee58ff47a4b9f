import HealthModel

/// The iOS 8/9 export format (reference §3.2): no DTD, compact dates (`Timestamp.parseCompact`), `source`
/// instead of `sourceName`, metadata written as attributes of the `Record`, and pre-aggregated records.
///
/// Nothing switches the decoder into a "legacy mode": each record is read by the attributes it has, so a
/// modern export without its DOCTYPE is read as modern, and the modern path pays nothing beyond one
/// `switch` case (`source`) and a flag that its records never set.
extension ExportDecoder {
    /// Turns every attribute of a legacy `Record` that is not one of a record's own (`HKWasUserEntered`,
    /// `sessionId`, vendor keys, `recordCount`, `min`, `max`, `average`) into a metadata entry, so nothing the
    /// phone wrote is lost. The aggregates' numbers carry the record's unit, so the unit stage converts them
    /// with its value (`count/s` → `count/min`); their text stays as exported. Returns `average` (an
    /// aggregate of a discrete type has no `value`; its mean stands in for it).
    func addAttributeMetadata(_ attributes: XMLAttributes, isCategory: Bool, unit: UInt32) -> Double? {
        var average: Double?
        for index in 0..<attributes.count {
            switch attributeNameLookup(attributes, index) {
            case .type, .source, .sourceName, .sourceVersion, .device, .unit, .creationDate, .startDate, .endDate,
                .value:
                continue
            default:
                let key = XMLText.intern(attributes.name(index), in: &vocabulary.keys)
                let keyText = vocabulary.keys.string(key)
                XMLText.withDecoded(attributes.value(index)) { value in
                    let (number, numberUnit) = MetadataValue.quantity(value)
                    var unitID = numberUnit.map { vocabulary.units.id($0) } ?? 0
                    if Self.aggregateKeys.contains(keyText), number != nil, !isCategory {
                        unitID = unit
                        if keyText == "average" { average = number }
                    }
                    withOpenRecordBatch {
                        $0.appendMetadata(key: key, value: value, number: number, numberUnit: unitID)
                    }
                }
            }
        }
        return average
    }

    /// Replaces a legacy category record's number by the name later exports write (sleep `0` →
    /// `HKCategoryValueSleepAnalysisInBed`, `1` → `…Asleep`), so rollups and the `sleep` view see the night;
    /// the number stays in `rawText`. A NotApplicable `0` becomes no value, as modern exports write it. A
    /// number the catalog does not name is kept as written and counted.
    func nameLegacyCategoryValue(_ row: inout SampleBatch.Row) {
        let text = vocabulary.texts.string(row.text)
        guard let raw = Int(text) else { return }
        let type = vocabulary.types.string(row.type)
        switch TypeCatalog.legacyCategoryValue(type: type, raw: raw) {
        case .named(let name):
            row.rawText = text
            row.text = vocabulary.texts.id(name)
        case .valueless:
            row.rawText = text
            row.text = 0
        case nil:
            warn("category value \(text) of \(type) has no name in the catalog (kept as exported)")
        }
    }

    /// The statistics of a pre-aggregated legacy record, in the record's unit (`recordCount` is a count).
    static let aggregateKeys: Set<String> = ["min", "max", "average"]
}
