import HealthModel

/// The unit stage over a batch's columns (docs/batches.md, step 6): the same conversions, flags, raw values and
/// counts as `normalize` gives each `Sample`, bit for bit. What a (type, unit) pair needs is decided once per run
/// of rows sharing it (exports come grouped by type), and a metadata unit once per batch; a row then costs a
/// multiply, with no `String` touched.
extension UnitStage {
    /// What rows of one (type id, unit id) pair need.
    enum RowConversion {
        case none
        case notConvertible(unit: String)
        case convert(UnitConverter, target: UInt32, from: String, to: String)
    }

    /// What metadata numbers in one unit need: the converter to their storage unit, if any.
    struct MetadataConversion {
        var isPercent: Bool
        var converter: UnitConverter?
        var target: UInt32
    }

    public mutating func process(_ batch: inout SampleBatch) throws {
        try batch.processOthers { try process($0, emit: $1) }
        // Ids are the batch's own (a batch may come with another vocabulary than the last): decided per batch.
        var decisions: [UInt64: RowConversion] = [:]
        var metadata = MetadataColumns(batch)
        var lastPair = UInt64.max
        var decision = RowConversion.none
        var run = 0
        for row in 0..<batch.rowCount {
            if batch.metadataStart[row] != batch.metadataStart[row + 1] { normalizeMetadata(&batch, row, &metadata) }
            let unit = batch.unit[row]
            guard unit != 0, batch.presence[row].contains(.value) else { continue }
            let pair = UInt64(batch.type[row]) << 32 | UInt64(unit)
            if pair != lastPair {
                countRun(decision, run)
                run = 0
                lastPair = pair
                if let known = decisions[pair] {
                    decision = known
                } else {
                    decision = conversion(type: batch.type[row], unit: unit, in: &batch.vocabulary)
                    decisions[pair] = decision
                }
            }
            switch decision {
            case .none: continue
            case .notConvertible(let unitText):
                batch.flags[row] |= SampleFlags.unitNotConvertible.rawValue
                problems[
                    "records whose unit does not convert to the type's unit (kept as exported): \(unitText)", default: 0
                ] +=
                    1
            case .convert(let converter, let target, _, _):
                let value = batch.value[row]
                batch.rawValue[row] = value
                batch.presence[row].insert(.rawNumber)
                batch.rawUnit[row] = unit
                batch.value[row] = converter.convert(value)
                batch.unit[row] = target
                run += 1
            }
        }
        countRun(decision, run)
    }

    private mutating func countRun(_ decision: RowConversion, _ count: Int) {
        guard count > 0, case .convert(_, _, let from, let to) = decision else { return }
        countConversion(from: from, to: to, count: count)
    }

    /// As `normalize(_ sample:)` decides for a sample of this type and unit with a value.
    private func conversion(type: UInt32, unit: UInt32, in vocabulary: inout Vocabulary) -> RowConversion {
        let typeText = vocabulary.types.string(type)
        guard !Sample.isCategory(type: typeText), let target = TypeCatalog.quantityInfo(typeText)?.canonicalUnit
        else { return .none }
        let unitText = vocabulary.units.string(unit)
        if unitText == target { return .none }
        guard let converter = conversions.converter(from: unitText, to: target) else {
            return .notConvertible(unit: unitText)
        }
        return .convert(converter, target: vocabulary.units.id(target), from: unitText, to: target)
    }

    /// The batch's metadata units, decided on first use, and the key humidity is corrected for.
    struct MetadataColumns {
        var byUnit: [MetadataConversion?]
        let humidityKey: UInt32?
        init(_ batch: SampleBatch) {
            byUnit = Array(repeating: nil, count: batch.vocabulary.units.count + 1)
            var key = "HKWeatherHumidity"
            humidityKey = key.withUTF8 { batch.vocabulary.keys.find($0) }
        }
    }

    /// As `normalizeMetadata` does to a sample's entries, over row `row`'s side columns.
    private mutating func normalizeMetadata(_ batch: inout SampleBatch, _ row: Int, _ columns: inout MetadataColumns) {
        for index in batch.metadataRange(row) where batch.metadataHasNumber[index] {
            let unit = batch.metadataUnit[index]
            guard unit != 0 else { continue }
            if Int(unit) >= columns.byUnit.count {
                columns.byUnit += Array(repeating: nil, count: Int(unit) + 1 - columns.byUnit.count)
            }
            let conversion: MetadataConversion
            if let known = columns.byUnit[Int(unit)] {
                conversion = known
            } else {
                let unitText = batch.vocabulary.units.string(unit)
                var converter: UnitConverter?
                var target = unit
                if let targetText = metadataTarget(for: unitText), targetText != unitText,
                    let found = conversions.converter(from: unitText, to: targetText)
                {
                    converter = found
                    target = batch.vocabulary.units.id(targetText)
                }
                conversion = MetadataConversion(isPercent: unitText == "%", converter: converter, target: target)
                columns.byUnit[Int(unit)] = conversion
            }
            var value = batch.metadataNumber[index]
            if conversion.isPercent, value > 100, let humidity = columns.humidityKey,
                batch.metadataKey[index] == humidity
            {
                value /= 100
                problems["HKWeatherHumidity values written ×100, divided by 100", default: 0] += 1
            }
            guard let converter = conversion.converter else {
                batch.metadataNumber[index] = value
                continue
            }
            batch.metadataNumber[index] = converter.convert(value)
            batch.metadataUnit[index] = conversion.target
        }
    }
}
