import HealthModel
import HealthSQLite
import HealthSchema

/// The tables whose elements carry metadata, with their fixed ids in `parent_tables` (the order of
/// `Schema.metadataParents`; a test checks that the two agree).
enum MetadataParent: Int64, CaseIterable {
    case cumulative = 1, discrete, category, correlations, workouts, workoutEvents, workoutActivities,
        workoutRoutes, audiograms, visionPrescriptions

    /// The public table's name (`metadata.parent_table`).
    var tableName: String { Schema.metadataParents[Int(rawValue) - 1] }

    init(_ table: TrackedTable) {
        switch table {
        case .cumulative: self = .cumulative
        case .discrete: self = .discrete
        case .category: self = .category
        case .correlations: self = .correlations
        case .workouts: self = .workouts
        }
    }
}

/// `metadata_rows`: the `MetadataEntry` children of every element, four to a statement step, with the key
/// stored once in `metadata_keys` and referred to by id.
struct MetadataWriter {
    private let rows: MultiRowInsert
    private var keys: NameDictionary
    /// The key ids of the entries being written (reused: no allocation per element).
    private var keyIDs: [Int64] = []
    /// `metadata_keys` ids by vocabulary key id, for the batch being written (0: not looked up yet).
    private var batchKeyIDs: [Int64] = []
    private let parentTableID, parentID, keyID, value, number, numberUnit: Int32

    init(_ connection: SQLiteConnection, hadData: Bool) throws {
        // A sample has a few metadata entries (eight from some apps).
        rows = try MultiRowInsert(connection, table: "metadata_rows", rowsPerStep: 4)
        keys = try NameDictionary(connection, table: "metadata_keys", column: "key", hadData: hadData)
        parentTableID = try rows.offset("parent_table_id")
        parentID = try rows.offset("parent_id")
        keyID = try rows.offset("key_id")
        value = try rows.offset("value")
        number = try rows.offset("number")
        numberUnit = try rows.offset("number_unit")
    }

    /// Writes the entries of the element `id` of `parent`; returns how many rows that made.
    mutating func write(_ entries: [MetadataEntry], parent: MetadataParent, id: Int64) throws -> Int {
        guard !entries.isEmpty else { return 0 }
        keyIDs.removeAll(keepingCapacity: true)
        for entry in entries { keyIDs.append(try keys.id(of: entry.key)) }
        let parentTable = parent.rawValue
        try rows.insert(count: entries.count) { statement, first, row in
            let entry = entries[row]
            statement.bind(first + parentTableID, parentTable)
            statement.bind(first + parentID, id)
            statement.bind(first + keyID, keyIDs[row])
            statement.bind(first + value, entry.value)
            statement.bind(first + number, entry.number)
            statement.bind(first + numberUnit, entry.numberUnit)
        }
        return entries.count
    }

    /// Starts a batch: its key ids are looked up again (a batch's vocabulary may not be the last one's).
    mutating func beginBatch(keyCount: Int) {
        batchKeyIDs.removeAll(keepingCapacity: true)
        batchKeyIDs.append(contentsOf: repeatElement(0, count: keyCount + 1))
    }

    /// Writes a batch's entries `entries` (one row's CSR range) as children of `id`; the keys are looked up
    /// once per batch, in the order the `[MetadataEntry]` form meets them.
    mutating func write(
        _ batch: BatchRows, entries: Range<Int>, parent: MetadataParent,
        id: Int64
    ) throws -> Int {
        for entry in entries {
            let key = Int(batch.metadataKey[entry])
            if batchKeyIDs[key] == 0 {
                batchKeyIDs[key] = try keys.id(of: batch.vocabulary.keys.string(UInt32(key)))
            }
        }
        let parentTable = parent.rawValue
        let first = entries.lowerBound
        try rows.insert(count: entries.count) { [batchKeyIDs] statement, firstParameter, row in
            let entry = first + row
            let unitID = batch.metadataUnit[entry]
            statement.bind(firstParameter + parentTableID, parentTable)
            statement.bind(firstParameter + parentID, id)
            statement.bind(firstParameter + keyID, batchKeyIDs[Int(batch.metadataKey[entry])])
            batch.bindArena(batch.metadataValue[entry], statement, firstParameter + value)
            statement.bind(
                firstParameter + number,
                batch.metadataHasNumber[entry] ? batch.metadataNumber[entry] : nil)
            statement.bind(firstParameter + numberUnit, unitID == 0 ? nil : batch.units.string(unitID))
        }
        return entries.count
    }
}

/// `hrv_beat_rows`: the beat-to-beat readings of HRV records, sixteen to a statement step (a record has ~60).
struct BeatWriter {
    private let rows: MultiRowInsert
    private let sampleID, seq, bpm, time, rawTime: Int32

    init(_ connection: SQLiteConnection) throws {
        rows = try MultiRowInsert(connection, table: "hrv_beat_rows", rowsPerStep: 16)
        sampleID = try rows.offset("sample_id")
        seq = try rows.offset("seq")
        bpm = try rows.offset("bpm")
        time = try rows.offset("time_centis")
        rawTime = try rows.offset("raw_time")
    }

    func write(_ beats: [HeartbeatReading], sampleID id: Int64) throws {
        try rows.insert(count: beats.count) { statement, first, sequence in
            let beat = beats[sequence]
            statement.bind(first + sampleID, id)
            statement.bind(first + seq, sequence)
            statement.bind(first + bpm, beat.bpm)
            if let seconds = beat.seconds {
                statement.bind(first + time, Centiseconds.of(seconds))
            } else {
                statement.bindNull(first + time)
            }
            statement.bind(first + rawTime, beat.rawTime)
        }
    }

    /// Writes a batch's beats `range` (one row's CSR range), as `write` writes the row's `Sample` form's.
    func write(_ batch: BatchRows, _ range: Range<Int>, sampleID id: Int64) throws {
        let firstBeat = range.lowerBound
        try rows.insert(count: range.count) { statement, first, sequence in
            let beat = firstBeat + sequence
            let present = batch.beatPresence[beat]
            statement.bind(first + sampleID, id)
            statement.bind(first + seq, sequence)
            statement.bind(first + bpm, present.contains(.bpm) ? batch.beatBPM[beat] : nil)
            if present.contains(.seconds) {
                statement.bind(first + time, Centiseconds.of(batch.beatSeconds[beat]))
            } else {
                statement.bindNull(first + time)
            }
            batch.bindArena(batch.beatRawTime[beat], statement, first + rawTime)
        }
    }
}

/// `route_point_rows`: a route's locations, thirty-two to a statement step (a route has thousands).
struct RoutePointWriter {
    private let rows: MultiRowInsert
    private let routeID, seq, time, latitude, longitude, elevation, speed, course, horizontal, vertical: Int32

    init(_ connection: SQLiteConnection) throws {
        rows = try MultiRowInsert(connection, table: "route_point_rows", rowsPerStep: 32)
        routeID = try rows.offset("route_id")
        seq = try rows.offset("seq")
        time = try rows.offset("time_centis")
        latitude = try rows.offset("latitude")
        longitude = try rows.offset("longitude")
        elevation = try rows.offset("elevation")
        speed = try rows.offset("speed")
        course = try rows.offset("course")
        horizontal = try rows.offset("horizontal_accuracy")
        vertical = try rows.offset("vertical_accuracy")
    }

    /// Writes a route's points in order; a long route's come back from its temporary file a chunk at a time.
    /// Bound from the packed records as they are stored: no `RoutePoint` is made.
    func write(_ points: RoutePointBuffer, routeID id: Int64) throws {
        var chunkStart = 0
        try points.forEachPackedChunk { chunk in
            try rows.insert(count: chunk.count) { statement, first, row in
                statement.bind(first + routeID, id)
                statement.bind(first + seq, chunkStart + row)
                if let seconds = chunk.value(.time, row) {
                    statement.bind(first + time, Centiseconds.of(seconds))
                } else {
                    statement.bindNull(first + time)
                }
                statement.bind(first + latitude, chunk.latitude(row))
                statement.bind(first + longitude, chunk.longitude(row))
                statement.bind(first + elevation, chunk.value(.elevation, row))
                statement.bind(first + speed, chunk.value(.speed, row))
                statement.bind(first + course, chunk.value(.course, row))
                statement.bind(first + horizontal, chunk.value(.horizontalAccuracy, row))
                statement.bind(first + vertical, chunk.value(.verticalAccuracy, row))
            }
            chunkStart += chunk.count
        }
    }
}

/// Instants of route points and beats: hundredths of a second since 1970, rounded as their text always was
/// (`2019-06-18T01:07:11.94Z`: the fraction to the nearest hundredth, carried into the second at .995).
enum Centiseconds {
    static func of(_ seconds: Double) -> Int64 {
        let whole = seconds.rounded(.down)
        return Int64(whole) * 100 + Int64(((seconds - whole) * 100).rounded())
    }
}
