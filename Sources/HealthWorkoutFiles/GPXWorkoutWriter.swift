/// A workout's route as GPX 1.1: one track of the activity's type, a segment per stretch between pauses, each
/// point with its elevation, time, and Garmin's TrackPointExtension v1 (heart rate, cadence). GPX has no laps
/// or totals; TCX and FIT carry them.
struct GPXWorkoutWriter {
    let track: WorkoutTrack

    func write<Sink: ByteSink>(into sink: inout Sink) throws {
        var out = BufferedWriter(sink)
        let workout = track.workout
        try out.text(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="healthetl" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
            http://www.garmin.com/xmlschemas/TrackPointExtension/v1 \
            http://www.garmin.com/xmlschemas/TrackPointExtensionv1.xsd">
             <metadata><time>\(XMLText.instant(workout.start * 100))</time></metadata>
             <trk>
              <type>\(WorkoutSport.fileWord(workout.activityType))</type>

            """)
        var openSegment: Int?
        try track.forEachPoint { point in
            guard let latitude = point.latitude, let longitude = point.longitude else { return }
            if openSegment != point.segment {
                if openSegment != nil { try out.text("  </trkseg>\n") }
                openSegment = point.segment
                try out.text("  <trkseg>\n")
            }
            var text =
                "   <trkpt lat=\"\(XMLText.decimal(latitude, places: 7))\" lon=\"\(XMLText.decimal(longitude, places: 7))\">"
            if let elevation = point.elevation { text += "<ele>\(XMLText.decimal(elevation, places: 2))</ele>" }
            text += "<time>\(XMLText.instant(point.time))</time>"
            let beats = TCXWorkoutWriter.beats(point.heartRate)
            let cadence = TCXWorkoutWriter.cadence(point.cadence)
            if beats != nil || cadence != nil {
                text += "<extensions><gpxtpx:TrackPointExtension>"
                if let beats { text += "<gpxtpx:hr>\(beats)</gpxtpx:hr>" }
                if let cadence { text += "<gpxtpx:cad>\(cadence)</gpxtpx:cad>" }
                text += "</gpxtpx:TrackPointExtension></extensions>"
            }
            try out.text(text + "</trkpt>\n")
        }
        if openSegment != nil { try out.text("  </trkseg>\n") }
        try out.text(" </trk>\n</gpx>\n")
        try out.flush()
        sink = out.sink
    }
}
