import HealthJSON
import HealthModel

/// Health Auto Export workouts, version 2 (`id`, `name`, `start`, `end`, `duration` in seconds,
/// `activeEnergyBurned`, `distance`, …) and version 1 (no `id` or `duration`; `activeEnergy`, `totalEnergy`),
/// as `Workout`s: the activity type from the name, the totals, and the average/maximum heart rate and step
/// count as statistics. The per-minute series inside a workout (heart rate, steps) are the metrics' points
/// again and are not stored twice; routes are left out (docs/feed.md).
enum FeedWorkouts {
    static func workout(
        _ object: JSON, line: Int, sources: FeedSources, warnings: inout [String: Int]
    ) -> Workout? {
        guard let name = object["name"]?.stringValue,
            let start = object["start"]?.stringValue.flatMap(Timestamp.parse),
            let end = object["end"]?.stringValue.flatMap(Timestamp.parse)
        else {
            warnings["Health Auto Export workouts without a name, start or end (skipped)", default: 0] += 1
            return nil
        }
        var workout = Workout(
            activityType: activityType(name), source: sources.source(object["source"]?.stringValue),
            line: Int32(clamping: line))
        workout.startDate = start
        workout.endDate = end
        let seconds = object["duration"]?.doubleValue ?? Double(end.seconds - start.seconds)
        workout.duration = seconds / 60
        workout.durationUnit = "min"
        if let (value, unit) = quantity(object["distance"]) {
            workout.totalDistance = value
            workout.totalDistanceUnit = unit
        }
        if let (value, unit) = quantity(object["activeEnergyBurned"]) ?? quantity(object["activeEnergy"]) {
            workout.totalEnergyBurned = value
            workout.totalEnergyBurnedUnit = unit
        }
        if let id = object["id"]?.stringValue {
            workout.metadata.append(MetadataEntry(key: "HealthAutoExportID", value: id))
        }
        if let name = object["name"]?.stringValue {
            workout.metadata.append(MetadataEntry(key: "HealthAutoExportName", value: name))
        }
        if case .bool(let indoor)? = object["isIndoor"] {
            workout.metadata.append(MetadataEntry(key: "HKIndoorWorkout", value: indoor ? "1" : "0"))
        }
        if let location = object["location"]?.stringValue {
            workout.metadata.append(MetadataEntry(key: "location", value: location))
        }
        var heartRate = WorkoutStatistic(type: "HKQuantityTypeIdentifierHeartRate", startDate: start, endDate: end)
        if let (value, unit) = quantity(object["avgHeartRate"])
            ?? quantity(object["heartRate"]?["avg"])
        {
            heartRate.average = value
            heartRate.unit = FeedPoints.normalizedUnit(unit, identifier: heartRate.type).text
        }
        if let (value, unit) = quantity(object["maxHeartRate"])
            ?? quantity(object["heartRate"]?["max"])
        {
            heartRate.maximum = value
            heartRate.unit = FeedPoints.normalizedUnit(unit, identifier: heartRate.type).text
        }
        if heartRate.average != nil || heartRate.maximum != nil { workout.statistics.append(heartRate) }
        var steps: Double?
        if let (value, _) = quantity(object["stepCount"]) {
            steps = value
        } else if case .array(let series)? = object["stepCount"] {
            steps = series.compactMap { $0["qty"]?.doubleValue }.reduce(0, +)
        }
        if let steps {
            workout.statistics.append(
                WorkoutStatistic(
                    type: "HKQuantityTypeIdentifierStepCount", startDate: start, endDate: end, sum: steps, unit: "count"
                ))
        }
        return workout
    }

    /// `{"qty": 3.5, "units": "km"}` → (3.5, "km").
    static func quantity(_ value: JSON?) -> (Double, String)? {
        guard let number = value?["qty"]?.doubleValue else { return nil }
        return (number, value?["units"]?.stringValue ?? "")
    }

    /// The app's display name → `HKWorkoutActivityType…`: `Outdoor Run` → `Running`, `Pool Swim` →
    /// `Swimming`, `Traditional Strength Training` → `TraditionalStrengthTraining`.
    static func activityType(_ name: String) -> String {
        var words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        if let first = words.first, ["Outdoor", "Indoor", "Pool", "Open"].contains(first), words.count > 1 {
            words.removeFirst()
            if words.first == "Water", words.count > 1 { words.removeFirst() }
        }
        let aliases = [
            "Run": "Running", "Walk": "Walking", "Cycle": "Cycling", "Swim": "Swimming", "Row": "Rowing",
            "Hike": "Hiking", "Stair Stepper": "Stair Climbing", "HIIT": "High Intensity Interval Training",
            "Wheelchair Run Pace": "Wheelchair Run Pace", "Wheelchair Walk Pace": "Wheelchair Walk Pace",
        ]
        let joined = words.joined(separator: " ")
        let named = aliases[joined] ?? joined
        let camel = named.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return "HKWorkoutActivityType" + (camel.isEmpty ? "Other" : camel)
    }
}
