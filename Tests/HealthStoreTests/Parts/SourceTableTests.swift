import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `SourceTable`: a source's row is written the first time it is met; the decoder's ids (from 0 in every run)
/// map to stable row ids, and a source with the same name, version and device is the same row.
struct SourceTableTests {
    /// The row id `write` gives, and whether it wrote the row.
    static func written(_ sources: inout SourceTable, _ source: SampleSource) throws -> String {
        let (id, inserted) = try sources.write(source)
        return "\(id) \(inserted ? "new" : "known")"
    }

    @Test func eachDistinctSourceIsWrittenOnce() throws {
        let rig = try WriterRig()
        var sources = try SourceTable(rig.connection, hadData: false)
        let phone = SampleSource(id: 0, name: "Phone", version: "17.2", device: nil)
        let watch = SampleSource(
            id: 2, name: "Watch", version: nil,
            device: Device(description: "<<HKDevice: 0x1>, name:Apple Watch, model:Watch>"))
        #expect(try Self.written(&sources, phone) == "1 new")
        #expect(try Self.written(&sources, phone) == "1 known")
        #expect(try Self.written(&sources, watch) == "2 new")
        // Another decoder id for the same name, version and device: the same row.
        #expect(
            try Self.written(&sources, SampleSource(id: 1, name: "Phone", version: "17.2", device: nil)) == "1 known")
        // Another version is another source.
        #expect(try Self.written(&sources, SampleSource(id: 3, name: "Phone", version: "17.3", device: nil)) == "3 new")
        #expect(sources.rowID(watch) == 2)
        #expect(
            try rig.rows("SELECT id, name, version, device_name FROM sources ORDER BY id") == [
                ["1", "Phone", "17.2", "nil"], ["2", "Watch", "nil", "Apple Watch"], ["3", "Phone", "17.3", "nil"],
            ])
    }

    @Test func earlierRunsRowsAreFoundAndNewRowsFollowTheHighestId() throws {
        let rig = try WriterRig()
        try rig.connection.execute("INSERT INTO sources (id, name, version) VALUES (7, 'Phone', '17.2')")
        var sources = try SourceTable(rig.connection, hadData: true)
        #expect(
            try Self.written(&sources, SampleSource(id: 0, name: "Phone", version: "17.2", device: nil)) == "7 known")
        #expect(try Self.written(&sources, SampleSource(id: 1, name: "Scale", version: nil, device: nil)) == "8 new")
        #expect(try rig.integer("SELECT count(*) FROM sources") == 2)
    }
}
