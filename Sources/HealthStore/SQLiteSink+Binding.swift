import Foundation
import HealthModel
import HealthSQLite

/// Binding rows: sources, the columns every sample-like table starts with, and metadata.
extension SQLiteSink {
    /// The `sources` row of a source, written (or, in a re-import, found) the first time it is met.
    @discardableResult @inline(__always)
    func writeSource(_ source: SampleSource) throws -> Int64 {
        let (id, inserted) = try sources.write(source)
        if inserted { count(.sources) }
        return id
    }

    package func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    package func real(_ value: Double?) -> SQLiteValue { value.map { $0.isFinite ? .real($0) : .null } ?? .null }

    /// The columns every sample-like table of few rows starts with (correlations, workouts, audiograms): id,
    /// type, source, the three instants, the offset they were exported in and the local day, writing the
    /// source first if it is new.
    func headerColumns(
        id: Int64, typeColumn: String = "type", type: String, source: SampleSource, start: Timestamp?,
        end: Timestamp?, creation: Timestamp?, metadata: [MetadataEntry]
    ) throws -> [(String, SQLiteValue)] {
        let sourceID = try writeSource(source)
        let any = start ?? end ?? creation
        let day = (start ?? end).map { localDates.day(of: $0, zoneName: Self.timeZoneName(metadata)) }
        return [
            ("id", .integer(id)), (typeColumn, .text(type)), ("source_id", .integer(sourceID)),
            ("source_name", .text(source.name)), ("start_date", instantText(start)), ("end_date", instantText(end)),
            ("creation_date", instantText(creation)),
            ("utc_offset", any.map { .text(TimestampFormatting.offsetString($0.offsetSeconds)) } ?? .null),
            ("local_date", day.map { .text(TimestampFormatting.dayString($0)) } ?? .null),
        ]
    }

    func instantText(_ instant: Timestamp?) -> SQLiteValue {
        instant.map { .text(TimestampFormatting.utcString($0.seconds)) } ?? .null
    }

    func writeMetadata(_ entries: [MetadataEntry], parent: MetadataParent, id: Int64) throws {
        guard !entries.isEmpty else { return }
        count(.metadata, try metadataWriter.write(entries, parent: parent, id: id))
    }
}
