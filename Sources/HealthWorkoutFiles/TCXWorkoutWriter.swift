/// A workout as Garmin's TrainingCenterDatabase v2: one Activity, a Lap per lap with its totals (time with the
/// timer running, distance, calories, heart rate), then its points, a new Track after each pause. Speed and
/// power go into Garmin's ActivityExtension v2 (`TPX`), which readers of TCX know.
struct TCXWorkoutWriter {
    let track: WorkoutTrack
    let summary: TrackSummary

    func write<Sink: ByteSink>(into sink: inout Sink) throws {
        var out = BufferedWriter(sink)
        let workout = track.workout
        try out.text(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" \
            xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 \
            http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd">
             <Activities>
              <Activity Sport="\(WorkoutSport.tcx(workout.activityType))">
               <Id>\(XMLText.instant(workout.start * 100))</Id>

            """)
        var openLap: Int?
        var openSegment: Int?
        func closeTrack() throws {
            if openSegment != nil { try out.text("     </Track>\n") }
            openSegment = nil
        }
        func closeLap() throws {
            try closeTrack()
            if openLap != nil { try out.text("    </Lap>\n") }
        }
        func openLaps(through index: Int) throws {
            while (openLap ?? -1) < index {
                try closeLap()
                let next = (openLap ?? -1) + 1
                openLap = next
                try out.text(lapHeader(summary.laps[next], trigger: trigger))
            }
        }
        try track.forEachPoint { point in
            try openLaps(through: point.lap)
            if openSegment != point.segment {
                try closeTrack()
                openSegment = point.segment
                try out.text("     <Track>\n")
            }
            try out.text(trackpoint(point))
        }
        try openLaps(through: summary.laps.count - 1)
        try closeLap()
        try out.text(
            """
              </Activity>
             </Activities>
            </TrainingCenterDatabase>

            """)
        try out.flush()
        sink = out.sink
    }

    private var trigger: String {
        switch track.workout.lapOrigin {
        case .lapEvents: return "Manual"
        case .segmentEvents, .kilometres: return "Distance"
        case .whole: return "Manual"
        }
    }

    private func lapHeader(_ lap: TrackSummary.Lap, trigger: String) -> String {
        var text = "    <Lap StartTime=\"\(XMLText.instant(lap.span.start))\">\n"
        text += "     <TotalTimeSeconds>\(XMLText.decimal(lap.timerSeconds, places: 3))</TotalTimeSeconds>\n"
        text += "     <DistanceMeters>\(XMLText.decimal(lap.distance, places: 2))</DistanceMeters>\n"
        if let speed = lap.maximumSpeed {
            text += "     <MaximumSpeed>\(XMLText.decimal(speed, places: 3))</MaximumSpeed>\n"
        }
        text += "     <Calories>\(min(65535, max(0, Int((lap.energy ?? 0).rounded()))))</Calories>\n"
        if let bpm = Self.beats(lap.averageHeartRate) {
            text += "     <AverageHeartRateBpm><Value>\(bpm)</Value></AverageHeartRateBpm>\n"
        }
        if let bpm = Self.beats(lap.maximumHeartRate) {
            text += "     <MaximumHeartRateBpm><Value>\(bpm)</Value></MaximumHeartRateBpm>\n"
        }
        text += "     <Intensity>Active</Intensity>\n"
        if let cadence = Self.cadence(lap.averageCadence) { text += "     <Cadence>\(cadence)</Cadence>\n" }
        text += "     <TriggerMethod>\(trigger)</TriggerMethod>\n"
        return text
    }

    private func trackpoint(_ point: TrackPoint) -> String {
        var text = "      <Trackpoint><Time>\(XMLText.instant(point.time))</Time>"
        if let latitude = point.latitude, let longitude = point.longitude {
            text += "<Position><LatitudeDegrees>\(XMLText.decimal(latitude, places: 7))</LatitudeDegrees>"
            text += "<LongitudeDegrees>\(XMLText.decimal(longitude, places: 7))</LongitudeDegrees></Position>"
        }
        if let elevation = point.elevation {
            text += "<AltitudeMeters>\(XMLText.decimal(elevation, places: 2))</AltitudeMeters>"
        }
        if let distance = point.distance {
            text += "<DistanceMeters>\(XMLText.decimal(distance, places: 2))</DistanceMeters>"
        }
        if let bpm = Self.beats(point.heartRate) { text += "<HeartRateBpm><Value>\(bpm)</Value></HeartRateBpm>" }
        if let cadence = Self.cadence(point.cadence) { text += "<Cadence>\(cadence)</Cadence>" }
        if point.speed != nil || point.power != nil {
            text += "<Extensions><ns3:TPX>"
            if let speed = point.speed { text += "<ns3:Speed>\(XMLText.decimal(speed, places: 3))</ns3:Speed>" }
            if let power = point.power { text += "<ns3:Watts>\(Int(power.rounded()))</ns3:Watts>" }
            text += "</ns3:TPX></Extensions>"
        }
        return text + "</Trackpoint>\n"
    }

    /// Heart rate as TCX (and GPX's extension) hold it: whole beats per minute, 1 to 255.
    static func beats(_ value: Double?) -> Int? {
        guard let value, value.isFinite else { return nil }
        let rounded = Int(value.rounded())
        return rounded >= 1 && rounded <= 255 ? rounded : nil
    }

    /// Cadence: whole revolutions per minute, 0 to 254.
    static func cadence(_ value: Double?) -> Int? {
        guard let value, value.isFinite else { return nil }
        let rounded = Int(value.rounded())
        return rounded >= 0 && rounded <= 254 ? rounded : nil
    }
}
