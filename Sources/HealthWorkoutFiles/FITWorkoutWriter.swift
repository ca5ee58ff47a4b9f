/// A workout as a FIT activity file: file_id, device_info, timer events (start, each pause's stop and start,
/// the end's stop), one record per point, the laps, the session with the workout's totals, the activity.
/// Field numbers, types, scales and offsets are those of Garmin's FIT profile (Profile.xlsx 21.x). The creator is
/// "development" (255) with product 0: no device name, no serial number.
struct FITWorkoutWriter {
    let track: WorkoutTrack
    let summary: TrackSummary

    private static let fileID = FIT.Definition(
        local: 0, global: 0,
        fields: [
            .init(number: 0, type: .enumeration), .init(number: 1, type: .uint16), .init(number: 2, type: .uint16),
            .init(number: 4, type: .uint32),
        ])
    private static let deviceInfo = FIT.Definition(
        local: 1, global: 23,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 0, type: .uint8), .init(number: 2, type: .uint16),
            .init(number: 4, type: .uint16),
        ])
    private static let event = FIT.Definition(
        local: 2, global: 21,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 0, type: .enumeration),
            .init(number: 1, type: .enumeration),
        ])
    private static let lap = FIT.Definition(
        local: 4, global: 19,
        fields: [
            .init(number: 254, type: .uint16), .init(number: 253, type: .uint32), .init(number: 0, type: .enumeration),
            .init(number: 1, type: .enumeration), .init(number: 2, type: .uint32), .init(number: 7, type: .uint32),
            .init(number: 8, type: .uint32), .init(number: 9, type: .uint32), .init(number: 11, type: .uint16),
            .init(number: 14, type: .uint16), .init(number: 15, type: .uint8), .init(number: 16, type: .uint8),
            .init(number: 17, type: .uint8), .init(number: 18, type: .uint8), .init(number: 19, type: .uint16),
            .init(number: 20, type: .uint16), .init(number: 24, type: .enumeration),
            .init(number: 25, type: .enumeration),
            .init(number: 39, type: .enumeration),
        ])
    private static let session = FIT.Definition(
        local: 5, global: 18,
        fields: [
            .init(number: 254, type: .uint16), .init(number: 253, type: .uint32), .init(number: 0, type: .enumeration),
            .init(number: 1, type: .enumeration), .init(number: 2, type: .uint32), .init(number: 3, type: .sint32),
            .init(number: 4, type: .sint32), .init(number: 5, type: .enumeration), .init(number: 6, type: .enumeration),
            .init(number: 7, type: .uint32), .init(number: 8, type: .uint32), .init(number: 9, type: .uint32),
            .init(number: 10, type: .uint32),
            .init(number: 11, type: .uint16), .init(number: 14, type: .uint16), .init(number: 15, type: .uint16),
            .init(number: 16, type: .uint8), .init(number: 17, type: .uint8), .init(number: 18, type: .uint8),
            .init(number: 19, type: .uint8), .init(number: 20, type: .uint16), .init(number: 21, type: .uint16),
            .init(number: 22, type: .uint16), .init(number: 25, type: .uint16), .init(number: 26, type: .uint16),
            .init(number: 28, type: .enumeration),
        ])
    private static let activity = FIT.Definition(
        local: 6, global: 34,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 0, type: .uint32), .init(number: 1, type: .uint16),
            .init(number: 2, type: .enumeration), .init(number: 3, type: .enumeration),
            .init(number: 4, type: .enumeration),
            .init(number: 5, type: .uint32),
        ])

    /// The record's fields: only what the workout has (a file without a route has no position fields).
    private var record: FIT.Definition {
        var fields: [FIT.Field] = [.init(number: 253, type: .uint32)]
        if track.hasPosition { fields += [.init(number: 0, type: .sint32), .init(number: 1, type: .sint32)] }
        if track.hasRoute { fields += [.init(number: 5, type: .uint32), .init(number: 78, type: .uint32)] }
        fields.append(.init(number: 73, type: .uint32))
        if track.hasHeartRate { fields.append(.init(number: 3, type: .uint8)) }
        if track.hasCadence { fields.append(.init(number: 4, type: .uint8)) }
        if track.hasPower { fields.append(.init(number: 7, type: .uint16)) }
        return FIT.Definition(local: 3, global: 20, fields: fields)
    }

    /// The whole file: header, data, CRC. The data is rendered twice, first only counted: the header states
    /// its size, and nothing of it is held.
    func write<Sink: ByteSink>(into sink: inout Sink) throws {
        var counter = BufferedWriter(CountingSink())
        try writeData(into: &counter)
        try counter.flush()
        let dataSize = UInt32(counter.sink.count)
        var header: [UInt8] = [FIT.headerSize, FIT.protocolVersion]
        header += [UInt8(FIT.profileVersion & 0xFF), UInt8(FIT.profileVersion >> 8)]
        header += (0..<4).map { UInt8(truncatingIfNeeded: dataSize >> (8 * $0)) }
        header += Array(".FIT".utf8)
        var headerCRC = FIT.CRC()
        header.withUnsafeBytes { headerCRC.update($0) }
        header += [UInt8(headerCRC.value & 0xFF), UInt8(headerCRC.value >> 8)]
        var out = BufferedWriter(CRCSink(inner: sink))
        try out.bytes(header)
        try writeData(into: &out)
        try out.flush()
        let crc = out.sink.crc.value
        sink = out.sink.inner
        try [UInt8(crc & 0xFF), UInt8(crc >> 8)].withUnsafeBytes { try sink.write($0) }
    }

    private func writeData<Sink: ByteSink>(into out: inout BufferedWriter<Sink>) throws {
        let workout = track.workout
        let start = FIT.time(workout.start)
        let end = FIT.time(workout.end)
        let (sport, subSport) = WorkoutSport.fit(workout.activityType)
        try out.bytes(Self.fileID.bytes)
        try out.bytes(Self.fileID.message([4, 255, 0, start]))
        try out.bytes(Self.deviceInfo.bytes)
        try out.bytes(Self.deviceInfo.message([start, 0, 255, 0]))
        try out.bytes(Self.event.bytes)
        // Timer: start, stop_all (4) at each pause and start at its resume, stop_all at the end.
        try out.bytes(Self.event.message([start, 0, 0]))
        var timerEvents: [(time: Int64, type: Int64)] = []
        for pause in workout.pauses {
            timerEvents.append((pause.start / 100, 4))
            timerEvents.append((pause.end / 100, 0))
        }
        var nextEvent = 0
        let record = self.record
        try out.bytes(record.bytes)
        let hasPosition = track.hasPosition
        let hasRoute = track.hasRoute
        try track.forEachPoint { point in
            let seconds = point.time / 100
            while nextEvent < timerEvents.count && timerEvents[nextEvent].time <= seconds {
                try out.bytes(
                    Self.event.message([FIT.time(timerEvents[nextEvent].time), 0, timerEvents[nextEvent].type]))
                nextEvent += 1
            }
            var values: [Int64?] = [FIT.time(seconds)]
            if hasPosition {
                values.append(point.latitude.map(FIT.semicircles))
                values.append(point.longitude.map(FIT.semicircles))
            }
            if hasRoute {
                values.append(FIT.scaled(point.distance, scale: 100))
                values.append(FIT.scaled(point.elevation, scale: 5, offset: 500))
            }
            values.append(FIT.scaled(point.speed, scale: 1000))
            if track.hasHeartRate { values.append(FIT.scaled(point.heartRate, scale: 1)) }
            if track.hasCadence { values.append(FIT.scaled(point.cadence, scale: 1)) }
            if track.hasPower { values.append(FIT.scaled(point.power, scale: 1)) }
            try out.bytes(record.message(values))
        }
        for event in timerEvents[nextEvent...] {
            try out.bytes(Self.event.message([FIT.time(event.time), 0, event.type]))
        }
        try out.bytes(Self.event.message([end, 0, 4]))
        try out.bytes(Self.lap.bytes)
        let trigger: Int64
        switch workout.lapOrigin {
        case .lapEvents: trigger = 0  // manual
        case .segmentEvents, .kilometres: trigger = 2  // distance
        case .whole: trigger = 7  // session_end
        }
        for (index, lap) in summary.laps.enumerated() {
            try out.bytes(
                Self.lap.message([
                    Int64(index), FIT.time(lap.span.end / 100), 9, 1, FIT.time(lap.span.start / 100),
                    FIT.scaled(lap.elapsedSeconds, scale: 1000), FIT.scaled(lap.timerSeconds, scale: 1000),
                    FIT.scaled(lap.distance, scale: 100), FIT.scaled(lap.energy, scale: 1),
                    FIT.scaled(lap.maximumSpeed, scale: 1000), FIT.scaled(lap.averageHeartRate, scale: 1),
                    FIT.scaled(lap.maximumHeartRate, scale: 1), FIT.scaled(lap.averageCadence, scale: 1),
                    FIT.scaled(lap.maximumCadence, scale: 1), FIT.scaled(lap.averagePower, scale: 1),
                    FIT.scaled(lap.maximumPower, scale: 1), trigger, Int64(sport), Int64(subSport),
                ]))
        }
        let averageSpeed = summary.distance.flatMap { workout.timerSeconds > 0 ? $0 / workout.timerSeconds : nil }
        try out.bytes(Self.session.bytes)
        try out.bytes(
            Self.session.message([
                0, end, 8, 1, start, summary.firstPosition.map { FIT.semicircles($0.latitude) },
                summary.firstPosition.map { FIT.semicircles($0.longitude) }, Int64(sport), Int64(subSport),
                FIT.scaled(workout.elapsedSeconds, scale: 1000), FIT.scaled(workout.timerSeconds, scale: 1000),
                FIT.scaled(summary.distance, scale: 100), FIT.scaled(sport == 5 ? workout.strokes : nil, scale: 1),
                FIT.scaled(workout.energy, scale: 1), FIT.scaled(averageSpeed, scale: 1000),
                FIT.scaled(summary.maximumSpeed, scale: 1000),
                FIT.scaled(summary.averageHeartRate, scale: 1), FIT.scaled(summary.maximumHeartRate, scale: 1),
                FIT.scaled(summary.averageCadence, scale: 1), FIT.scaled(summary.maximumCadence, scale: 1),
                FIT.scaled(summary.averagePower, scale: 1), FIT.scaled(summary.maximumPower, scale: 1),
                FIT.scaled(workout.elevationGain, scale: 1), 0, Int64(summary.laps.count), 0,
            ]))
        try out.bytes(Self.activity.bytes)
        try out.bytes(
            Self.activity.message([
                end, FIT.scaled(workout.timerSeconds, scale: 1000), 1, 0, 26, 1, end + workout.utcOffsetSeconds,
            ]))
    }
}

/// Passes bytes on, adding them to FIT's file CRC.
struct CRCSink<Inner: ByteSink>: ByteSink {
    var inner: Inner
    var crc = FIT.CRC()

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        crc.update(bytes)
        try inner.write(bytes)
    }
}
