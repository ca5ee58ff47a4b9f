import Foundation
import HealthModel
import HealthSQLite

/// What the writers of every kind share: the `sources` rows, the metadata rows (`MetadataWriter`), the local
/// day of an instant, and the columns every sample-like table of few rows starts with. The rows it writes are
/// counted in the caller's report.
final class CommonRows {
    /// The `sources` rows, and the row id of each of the decoder's source ids.
    private var sources: SourceTable
    private var metadata: MetadataWriter
    private var localDates: LocalDateResolver

    init(_ connection: SQLiteConnection, hadData: Bool, timeZone: TimeZone) throws {
        sources = try SourceTable(connection, hadData: hadData)
        metadata = try MetadataWriter(connection, hadData: hadData)
        localDates = LocalDateResolver(timeZone: timeZone)
    }

    /// The `sources` row of a source, written (or, in a re-import, found) the first time it is met.
    @discardableResult @inline(__always)
    func writeSource(_ source: SampleSource, into report: inout WriteReport) throws -> Int64 {
        let (id, inserted) = try sources.write(source)
        if inserted { report.count(.sources) }
        return id
    }

    func writeMetadata(
        _ entries: [MetadataEntry], parent: MetadataParent, id: Int64, into report: inout WriteReport
    ) throws {
        guard !entries.isEmpty else { return }
        report.count(.metadata, try metadata.write(entries, parent: parent, id: id))
    }

    /// Starts writing a batch's rows (see `MetadataWriter.beginBatch`).
    func beginBatch(keyCount: Int) { metadata.beginBatch(keyCount: keyCount) }

    /// A batch's metadata entries `entries` (one row's), as `writeMetadata` writes the row's `[MetadataEntry]`.
    func writeMetadata(
        _ batch: BatchRows, entries: Range<Int>, parent: MetadataParent, id: Int64, into report: inout WriteReport
    ) throws {
        guard !entries.isEmpty else { return }
        report.count(.metadata, try metadata.write(batch, entries: entries, parent: parent, id: id))
    }

    /// The local day of `instant`, in the sample's own zone (`HKTimeZone`) when it has one.
    @inline(__always) func day(of instant: Timestamp, metadata: [MetadataEntry] = []) -> Int32 {
        localDates.day(of: instant, zoneName: Self.timeZoneName(metadata))
    }

    /// The local day of `instant` in the zone named by the sample's `HKTimeZone`, else the import's.
    @inline(__always) func day(of instant: Timestamp, zoneName: String?) -> Int32 {
        localDates.day(of: instant, zoneName: zoneName)
    }

    /// The columns every sample-like table of few rows starts with (correlations, workouts, audiograms): id,
    /// type, source, the three instants, the offset they were exported in and the local day, writing the
    /// source first if it is new.
    func headerColumns(
        id: Int64, typeColumn: String = "type", type: String, source: SampleSource, start: Timestamp?,
        end: Timestamp?, creation: Timestamp?, metadata: [MetadataEntry], into report: inout WriteReport
    ) throws -> [(String, SQLiteValue)] {
        let sourceID = try writeSource(source, into: &report)
        let any = start ?? end ?? creation
        let day = (start ?? end).map { self.day(of: $0, metadata: metadata) }
        return [
            ("id", .integer(id)), (typeColumn, .text(type)), ("source_id", .integer(sourceID)),
            ("source_name", .text(source.name)), ("start_date", .instant(start)), ("end_date", .instant(end)),
            ("creation_date", .instant(creation)),
            ("utc_offset", any.map { .text(TimestampFormatting.offsetString($0.offsetSeconds)) } ?? .null),
            ("local_date", day.map { .text(TimestampFormatting.dayString($0)) } ?? .null),
        ]
    }

    /// The sample's own time zone (`HKTimeZone` metadata), which decides its `local_date` before the import's.
    static func timeZoneName(_ metadata: [MetadataEntry]) -> String? { metadata.firstValue(.timeZone) }
}

extension SQLiteValue {
    /// The text, or NULL.
    static func nullable(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    /// The number, or NULL (also for a number that is not finite).
    static func nullable(_ value: Double?) -> SQLiteValue { value.map { $0.isFinite ? .real($0) : .null } ?? .null }
    /// The instant as UTC text (`2024-02-01T07:00:00Z`), or NULL.
    static func instant(_ instant: Timestamp?) -> SQLiteValue {
        instant.map { .text(TimestampFormatting.utcString($0.seconds)) } ?? .null
    }
}
