import HealthModel
import HealthSchema

/// A batch's rows, written from its columns (docs/batches.md, step 7): the same decisions as for a `Sample`
/// (`SamplePolicy`, `SampleWriter.write`, over `BatchRow`), with each type's made once per type id.
extension SampleWriter {
    /// What is decided per type: its table (nil: missing from the catalog, decided per row by its shape),
    /// whether it may be a correlation's child, its `type_names` id.
    struct BatchType {
        let name: String
        let kind: TypeCatalog.SampleKind?
        let correlationChild: Bool
        let typeID: Int64
    }

    /// Starts writing `batch`'s rows: the type and key decisions of the last batch are dropped (its
    /// vocabulary may be another one), the vocabulary's tables taken.
    func beginBatch(_ batch: borrowing SampleBatch) -> BatchRows {
        let vocabulary = batch.vocabulary
        batchTypes.removeAll(keepingCapacity: true)
        batchTypes.append(contentsOf: repeatElement(nil, count: vocabulary.types.count + 1))
        BatchRows.keyRoles(batch, into: &batchKeyRoles)
        common.beginBatch(keyCount: vocabulary.keys.count)
        return BatchRows(batch, keyRoles: batchKeyRoles)
    }

    /// Row `row` of the batch `beginBatch` started, at the top level: `writeTopLevel` of its `Sample`.
    func writeTopLevel(_ rows: BatchRows, row: Int, identity: Int64, into report: inout WriteReport) throws {
        let typeIndex = Int(rows.type[row])
        let type = try batchTypes[typeIndex] ?? decideType(typeIndex, rows)
        let sample = BatchRow(rows: rows, row: row, type: type.name)
        if type.kind == nil { report.noteUnknownType(type.name) }
        let kind =
            type.kind
            ?? TypeCatalog.kind(
                of: type.name, hasValue: sample.value != nil, hasText: sample.hasTextValue, hasUnit: sample.unit != nil)
        let table = Self.table(kind)
        if matchesDays, type.kind != nil,
            try meetByDay(rows, row: row, type: type, table: table, identity: identity, into: &report)
        {
            return
        }
        guard let (table, id) = try write(sample, table: table, typeID: type.typeID, identity: identity, into: &report)
        else { return }
        if type.correlationChild { try correlationCandidates.remember(identity, (table, id)) }
    }

    private func decideType(_ typeIndex: Int, _ rows: BatchRows) throws -> BatchType {
        let name = rows.vocabulary.types.string(UInt32(typeIndex))
        let kind =
            TypeCatalog.isKnown(name) ? TypeCatalog.kind(of: name, hasValue: true, hasText: false, hasUnit: true) : nil
        let type = BatchType(
            name: name, kind: kind, correlationChild: Self.mayBeCorrelationChild(name),
            typeID: try typeNames.id(of: name))
        batchTypes[typeIndex] = type
        return type
    }
}
