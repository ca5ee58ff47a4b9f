import Foundation
import HealthModel
import HealthSQLite

/// Binding rows: sources, the columns every sample-like table starts with, dates from scratch buffers,
/// metadata and HRV beats.
extension SQLiteSink {
    /// The `sources` row of a source, written (or, in a re-import, found) the first time it is met.
    @discardableResult @inline(__always)
    func writeSource(_ source: SampleSource) throws -> Int64 {
        let (id, inserted) = try sources.write(source)
        if inserted { count("sources") }
        return id
    }

    /// A 32-byte scratch area per parameter position (mod 16), so the several dates of one row never share
    /// one: they are bound without copying and read by SQLite only when the row is stepped.
    @inline(__always) func scratchSlot(_ parameter: Int32) -> UnsafeMutablePointer<UInt8> {
        scratch + Int(parameter & 15) * 32
    }

    package func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    package func real(_ value: Double?) -> SQLiteValue { value.map { $0.isFinite ? .real($0) : .null } ?? .null }

    /// Binds the columns every sample-like table starts with: id, type, source_id, source_name, start, end,
    /// creation, utc_offset and local_date (parameters 1…9), writing the source first if it is new.
    func bindHeader(
        _ statement: SQLiteStatement, id: Int64, type: String, source: SampleSource, start: Timestamp?,
        end: Timestamp?, creation: Timestamp?, metadata: [MetadataEntry]
    ) throws {
        try writeSource(source)
        statement.bind(1, id)
        statement.bind(2, type)
        bindSource(statement, 3, source)
        bindTimes(statement, 5, start: start, end: end, creation: creation, zone: Self.timeZoneName(metadata))
    }

    func bindSource(_ statement: SQLiteStatement, _ index: Int32, _ source: SampleSource) {
        statement.bind(index, sources.rowID(source))
        statement.bind(index + 1, source.name)
    }

    /// Binds start, end, creation, utc_offset and local_date at `index`…`index + 4`.
    func bindTimes(
        _ statement: SQLiteStatement, _ index: Int32, start: Timestamp?, end: Timestamp?, creation: Timestamp?,
        zone: String?
    ) {
        bindInstant(statement, index, start)
        bindInstant(statement, index + 1, end)
        bindInstant(statement, index + 2, creation)
        if let any = start ?? end ?? creation {
            if any.offsetSeconds != lastOffset.seconds {
                lastOffset = (any.offsetSeconds, TimestampFormatting.offsetString(any.offsetSeconds))
            }
            statement.bind(index + 3, lastOffset.text)
        } else {
            statement.bindNull(index + 3)
        }
        if let day = start ?? end {
            let number = localDates.day(of: day, zoneName: zone)
            let slot = scratchSlot(index + 4)
            TimestampFormatting.writeDay(number, into: slot)
            statement.bindStaticText(index + 4, slot, count: TimestampFormatting.dateLength)
        } else {
            statement.bindNull(index + 4)
        }
    }

    func bindInstant(_ statement: SQLiteStatement, _ index: Int32, _ instant: Timestamp?) {
        guard let instant else {
            statement.bindNull(index)
            return
        }
        let slot = scratchSlot(index)
        utcWriter.write(instant.seconds, into: slot)
        statement.bindStaticText(index, slot, count: TimestampFormatting.utcLength)
    }

    func instantText(_ instant: Timestamp?) -> SQLiteValue {
        instant.map { .text(TimestampFormatting.utcString($0.seconds)) } ?? .null
    }

    func writeMetadata(_ entries: [MetadataEntry], parent: MetadataParent, id: Int64) throws {
        guard !entries.isEmpty else { return }
        count("metadata", try metadataWriter.write(entries, parent: parent, id: id))
    }
}
