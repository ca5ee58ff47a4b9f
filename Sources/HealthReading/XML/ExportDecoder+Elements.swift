import Foundation
import HealthModel

/// Workouts, correlations and the rarer top-level elements.
extension ExportDecoder {
    func startCorrelation(_ attributes: XMLAttributes) {
        let common = commonAttributes(attributes)
        var item = Correlation(type: common.type.map(typeString) ?? "", source: common.source, line: line)
        item.creationDate = common.creationDate
        item.startDate = common.startDate
        item.endDate = common.endDate
        item.flags = common.flags
        if common.type == nil { item.flags.insert(.missingType) }
        // A correlation inside a correlation (no real export has one) replaces it, children and all.
        correlationRecords.removeClosedRows()
        correlation = item
    }

    func startWorkout(_ attributes: XMLAttributes) {
        let common = commonAttributes(attributes)
        var item = Workout(activityType: "", source: common.source, line: line)
        item.creationDate = common.creationDate
        item.startDate = common.startDate
        item.endDate = common.endDate
        item.flags = common.flags
        for index in 0..<attributes.count {
            let bytes = attributes.value(index)
            switch attributeNameLookup(attributes, index) {
            case .workoutActivityType: item.activityType = typeString(bytes)
            case .duration: item.duration = NumberParsing.parseDouble(bytes)
            case .durationUnit: item.durationUnit = unitString(bytes)
            case .totalDistance: item.totalDistance = NumberParsing.parseDouble(bytes)
            case .totalDistanceUnit: item.totalDistanceUnit = unitString(bytes)
            case .totalEnergyBurned: item.totalEnergyBurned = NumberParsing.parseDouble(bytes)
            case .totalEnergyBurnedUnit: item.totalEnergyBurnedUnit = unitString(bytes)
            default: break
            }
        }
        if item.activityType.isEmpty { item.flags.insert(.missingType) }
        workout = item
    }

    func addWorkoutEvent(_ attributes: XMLAttributes) {
        guard admits(workout?.events.count, .workoutEvent, in: .workout, limit: Self.maximumChildrenPerElement)
        else { return }
        var event = WorkoutEvent(type: string(attributes, .type) ?? "")
        event.date = timestamp(attributes, .date)
        event.duration = double(attributes, .duration)
        event.durationUnit = string(attributes, .durationUnit)
        event.activityIndex = activityIndex
        if !appendToWorkout({ $0.events.append(event) }) { warn("WorkoutEvent outside a Workout (ignored)") }
    }

    func startWorkoutActivity(_ attributes: XMLAttributes) {
        guard admits(workout?.activities.count, .workoutActivity, in: .workout, limit: Self.maximumChildrenPerElement)
        else { return }
        var activity = WorkoutActivity()
        activity.uuid = string(attributes, .uuid)
        activity.startDate = timestamp(attributes, .startDate)
        activity.endDate = timestamp(attributes, .endDate)
        activity.duration = double(attributes, .duration)
        activity.durationUnit = string(attributes, .durationUnit)
        var index: Int?
        let added = appendToWorkout {
            $0.activities.append(activity)
            index = $0.activities.count - 1
        }
        if added { activityIndex = index } else { warn("WorkoutActivity outside a Workout (ignored)") }
    }

    func addWorkoutStatistic(_ attributes: XMLAttributes) {
        guard admits(workout?.statistics.count, .workoutStatistics, in: .workout, limit: Self.maximumChildrenPerElement)
        else { return }
        var statistic = WorkoutStatistic(type: "")
        for index in 0..<attributes.count {
            let bytes = attributes.value(index)
            switch attributeNameLookup(attributes, index) {
            case .type: statistic.type = typeString(bytes)
            case .startDate: statistic.startDate = Timestamp.parse(bytes)
            case .endDate: statistic.endDate = Timestamp.parse(bytes)
            case .average: statistic.average = NumberParsing.parseDouble(bytes)
            case .minimum: statistic.minimum = NumberParsing.parseDouble(bytes)
            case .maximum: statistic.maximum = NumberParsing.parseDouble(bytes)
            case .sum: statistic.sum = NumberParsing.parseDouble(bytes)
            case .unit: statistic.unit = unitString(bytes)
            default: break
            }
        }
        statistic.activityIndex = activityIndex
        if !appendToWorkout({ $0.statistics.append(statistic) }) {
            warn("WorkoutStatistics outside a Workout (ignored)")
        }
    }

    func startRoute(_ attributes: XMLAttributes) {
        guard admits(workout?.routes.count, .workoutRoute, in: .workout, limit: Self.maximumChildrenPerElement)
        else { return }
        let common = commonAttributes(attributes)
        var item = WorkoutRoute(source: common.source)
        item.creationDate = common.creationDate
        item.startDate = common.startDate
        item.endDate = common.endDate
        // One budget of points in memory for all the routes of a workout, which are held until it ends.
        item.points.spillThreshold = routeSpillThreshold - (workout?.residentRoutePoints ?? 0)
        route = item
    }

    func endRoute() {
        guard var route = route.take() else { return }
        do {
            try route.points.finishAppending()
        } catch {
            parser?.stop(with: error as? ImportError ?? ImportError(.internal, "\(error)"))
            return
        }
        workout?.routes.append(route)
    }

    /// iOS 12 wrote route locations inline.
    func addLocation(_ attributes: XMLAttributes) {
        var point = RoutePoint(latitude: .nan, longitude: .nan)
        for index in 0..<attributes.count {
            let bytes = attributes.value(index)
            switch attributeNameLookup(attributes, index) {
            case .date: point.time = Timestamp.parse(bytes).map { Double($0.seconds) }
            case .latitude: point.latitude = NumberParsing.parseDouble(bytes) ?? .nan
            case .longitude: point.longitude = NumberParsing.parseDouble(bytes) ?? .nan
            case .altitude: point.elevation = NumberParsing.parseDouble(bytes)
            case .horizontalAccuracy: point.horizontalAccuracy = NumberParsing.parseDouble(bytes)
            case .verticalAccuracy: point.verticalAccuracy = NumberParsing.parseDouble(bytes)
            case .course: point.course = NumberParsing.parseDouble(bytes)
            case .speed: point.speed = NumberParsing.parseDouble(bytes)
            default: break
            }
        }
        if point.latitude.isNaN || point.longitude.isNaN {
            warn("Location without a latitude or longitude (ignored)")
            return
        }
        if !appendToRoute(point) { warn("Location outside a WorkoutRoute (ignored)") }
    }

    func addActivitySummary(_ attributes: XMLAttributes) {
        var summary = ActivitySummary(line: line)
        for (name, value) in allAttributes(attributes) {
            switch name {
            case "dateComponents": summary.date = value
            case "activeEnergyBurnedUnit": summary.activeEnergyBurnedUnit = value
            default:
                if let number = NumberParsing.parseDouble(value) {
                    summary.values.append((name, number))
                } else {
                    warn("ActivitySummary@\(name) is not a number (ignored)")
                }
            }
        }
        batch.append(.activitySummary(summary))
    }

    func addClinicalRecord(_ attributes: XMLAttributes) {
        var record = ClinicalRecord(line: line)
        for (name, value) in allAttributes(attributes) {
            switch name {
            case "type": record.type = value
            case "identifier": record.identifier = value
            case "sourceName": record.sourceName = value
            case "sourceURL": record.sourceURL = value
            case "fhirVersion": record.fhirVersion = value
            case "receivedDate": record.receivedDate = Timestamp.parse(value)
            case "resourceFilePath": record.resourceFilePath = value
            default: warn("ClinicalRecord@\(name) (ignored)")
            }
        }
        batch.append(.clinicalRecord(record))
    }

    func startAudiogram(_ attributes: XMLAttributes) {
        let common = commonAttributes(attributes)
        var item = Audiogram(type: common.type.map(typeString) ?? "", source: common.source, line: line)
        item.creationDate = common.creationDate
        item.startDate = common.startDate
        item.endDate = common.endDate
        audiogram = item
    }

    /// A State of Mind sample, should a future export write one. The attribute names follow HealthKit's
    /// (`kind`, `valence`, `labels`, `associations`, plus the usual source and dates); labels and associations
    /// are taken as comma-separated lists. Supporting the real element, once its shape is known, means
    /// adjusting this function only: everything after it (the valence stage, the table) is shared with the
    /// Health Auto Export reader.
    func startStateOfMind(_ attributes: XMLAttributes) {
        let common = commonAttributes(attributes)
        var entry = StateOfMindEntry(source: common.source.name, origin: "export.xml:\(line)")
        entry.startDate = common.startDate
        entry.endDate = common.endDate
        for (name, value) in allAttributes(attributes) {
            switch name {
            case "kind": entry.kind = value
            case "valence": entry.valence = NumberParsing.parseDouble(value)
            case "valenceClassification": entry.classification = value
            case "labels": entry.labels = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "associations":
                entry.associations = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "uuid", "identifier": entry.identifier = value
            default: break
            }
        }
        stateOfMindMetadata = []
        stateOfMind = entry
    }
}
