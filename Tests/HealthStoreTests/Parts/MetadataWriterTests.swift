import HealthSchema
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `MetadataWriter`, `BeatWriter`, `RoutePointWriter` and `Centiseconds`: rows that come many at a time, in
/// order, read back through their public views.
struct MetadataWriterTests {
    @Test func entriesAreWrittenInOrderWithTheirKeysStoredOnce() throws {
        let rig = try WriterRig()
        var writer = try MetadataWriter(rig.connection, hadData: false)
        let six = (0..<6).map { MetadataEntry(key: $0 % 2 == 0 ? "HKTimeZone" : "Length \($0)", value: "\($0) cm") }
        #expect(try writer.write(six, parent: .discrete, id: 8) == 6)
        #expect(try writer.write([], parent: .workouts, id: 9) == 0)
        #expect(try writer.write([MetadataEntry(key: "HKTimeZone", value: "UTC")], parent: .workoutRoutes, id: 2) == 1)
        let expected =
            six.enumerated().map {
                ["discrete_samples", "8", $0.element.key, $0.element.value, "\(Double($0.offset))", "cm"]
            }
            + [["workout_routes", "2", "HKTimeZone", "UTC", "nil", "nil"]]
        #expect(
            try rig.rows("SELECT parent_table, parent_id, key, value, number, number_unit FROM metadata ORDER BY rowid")
                == expected)
        #expect(try rig.integer("SELECT count(*) FROM metadata_keys") == 4)
    }

    @Test func parentsAreThePublicTablesInTheirFixedOrder() {
        #expect(MetadataParent.allCases.map(\.tableName) == Schema.metadataParents)
        for table in TrackedTable.allCases { #expect(MetadataParent(table).tableName == table.name) }
    }

    @Test func beatsAndRoutePointsKeepTheirOrder() throws {
        let rig = try WriterRig()
        let beats = (0..<20).map {
            HeartbeatReading(bpm: 60 + Double($0), seconds: 100 + Double($0) / 10, rawTime: "t\($0)")
        }
        try BeatWriter(rig.connection).write(beats, sampleID: 3)
        #expect(
            try rig.rows("SELECT sample_id, seq, bpm, raw_time FROM hrv_beats ORDER BY rowid")
                == beats.enumerated().map { ["3", "\($0.offset)", "\($0.element.bpm!)", $0.element.rawTime] })
        #expect(
            try rig.integer("SELECT sum(time_centis) FROM hrv_beat_rows")
                == (0..<20).reduce(0) { $0 + 10_000 + Int64($1) * 10 })
        let points = (0..<40).map {
            RoutePoint(latitude: Double($0), longitude: 13 - Double($0), elevation: $0 == 0 ? nil : 5)
        }
        try RoutePointWriter(rig.connection).write(try RoutePointBuffer(points), routeID: 2)
        #expect(
            try rig.rows("SELECT route_id, seq, latitude, longitude, elevation, time FROM route_points ORDER BY rowid")
                == points.enumerated().map {
                    [
                        "2", "\($0.offset)", "\($0.element.latitude)", "\($0.element.longitude)",
                        $0.offset == 0 ? "nil" : "5.0", "nil",
                    ]
                })
    }

    /// Hundredths of a second, the fraction rounded to the nearest, carried into the second at .995.
    @Test func centisecondsRoundAsTheTextDid() {
        #expect(Centiseconds.of(1_560_820_031.94) == 156_082_003_194)
        #expect(Centiseconds.of(10.994) == 1099)
        #expect(Centiseconds.of(10.996) == 1100)
        #expect(Centiseconds.of(0) == 0)
    }
}
