/// Identities of the items that nest others, built like `SampleIdentity` (what they say, UTC dates, never
/// the export's offset, line numbers or device addresses), so a re-import recognises them.
extension SampleIdentity {
    /// A correlation: its own fields and metadata, and the identities of its children (in any order).
    public static func fingerprint(_ correlation: Correlation) -> Int64 {
        fingerprint(correlation, childIdentities: correlation.children.map(fingerprint))
    }

    /// The same, with the children's identities already computed (the sink needs them to link the children).
    package static func fingerprint(_ correlation: Correlation, childIdentities: [Int64]) -> Int64 {
        var hasher = StableHasher()
        hasher.combine("correlation")
        combineHeader(
            &hasher, type: correlation.type, source: correlation.source, start: correlation.startDate,
            end: correlation.endDate, metadata: correlation.metadata)
        for child in childIdentities.sorted() { hasher.combine(child) }
        return hasher.finish()
    }

    /// A workout with its totals, events, activities, statistics and routes (by file and point count: a
    /// GPX file's points are the same as long as the export lists the same file).
    public static func fingerprint(_ workout: Workout) -> Int64 {
        var hasher = StableHasher()
        hasher.combine("workout")
        combineHeader(
            &hasher, type: workout.activityType, source: workout.source, start: workout.startDate,
            end: workout.endDate, metadata: workout.metadata)
        for number in [
            workout.duration, workout.rawTotalDistance?.value ?? workout.totalDistance,
            workout.rawTotalEnergyBurned?.value ?? workout.totalEnergyBurned,
        ] {
            hasher.combine(number?.bitPattern ?? 0)
        }
        hasher.combine(workout.durationUnit ?? "")
        hasher.combine(workout.rawTotalDistance?.unit ?? workout.totalDistanceUnit ?? "")
        hasher.combine(workout.rawTotalEnergyBurned?.unit ?? workout.totalEnergyBurnedUnit ?? "")
        for event in workout.events {
            hasher.combine(event.type)
            hasher.combine(event.date?.seconds ?? Int64.min)
            hasher.combine(event.duration?.bitPattern ?? 0)
        }
        for activity in workout.activities {
            hasher.combine(activity.uuid ?? "")
            hasher.combine(activity.startDate?.seconds ?? Int64.min)
            hasher.combine(activity.endDate?.seconds ?? Int64.min)
        }
        for statistic in workout.statistics.sorted(by: { $0.type < $1.type }) {
            hasher.combine(statistic.type)
            for number in [statistic.average, statistic.minimum, statistic.maximum, statistic.sum] {
                hasher.combine(number?.bitPattern ?? 0)
            }
        }
        for route in workout.routes {
            hasher.combine(route.filePath ?? "")
            hasher.combine(Int64(route.points.count))
            hasher.combine(route.startDate?.seconds ?? Int64.min)
        }
        return hasher.finish()
    }

    private static func combineHeader(
        _ hasher: inout StableHasher, type: String, source: SampleSource, start: Timestamp?, end: Timestamp?,
        metadata: [MetadataEntry]
    ) {
        hasher.combine(type)
        hasher.combine(source.name)
        hasher.combine(source.version ?? "")
        hasher.combine(source.device?.key ?? "")
        hasher.combine(start?.seconds ?? Int64.min)
        hasher.combine(end?.seconds ?? Int64.min)
        for entry in metadata.sorted(by: { ($0.key, $0.value) < ($1.key, $1.value) }) {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}
