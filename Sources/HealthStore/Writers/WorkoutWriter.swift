import HealthModel
import HealthSQLite

/// `workouts` and what hangs off them: activities, events, statistics, routes and their points. Owns the row
/// ids of those tables; a route's sync version is kept as a sample's is (`SyncVersions`). What a write did goes
/// into the caller's `WriteReport`.
final class WorkoutWriter {
    private(set) var lastWorkoutID: Int64
    private(set) var lastActivityID: Int64
    private(set) var lastEventID: Int64
    private(set) var lastStatisticID: Int64
    private(set) var lastRouteID: Int64
    private let statements: SchemaStatements
    private let points: RoutePointWriter
    private let sync: SyncVersions
    private let keepsHighestSyncVersion: Bool
    private let origin: RowOrigin
    private let common: CommonRows
    private let session: ReimportSession
    private let feed: FeedMerge

    init(
        _ connection: SQLiteConnection, statements: SchemaStatements, lastIDs: LastRowIDs, options: SQLiteSink.Options,
        common: CommonRows, session: ReimportSession, feed: FeedMerge
    ) throws {
        lastWorkoutID = lastIDs[.workouts]
        lastActivityID = lastIDs["workout_activities"]
        lastEventID = lastIDs["workout_events"]
        lastStatisticID = lastIDs["workout_statistics"]
        lastRouteID = lastIDs["workout_routes"]
        self.statements = statements
        points = try RoutePointWriter(connection)
        sync = SyncVersions(statements)
        keepsHighestSyncVersion = options.keepHighestSyncVersion
        origin = options.feed ? .feed : .export
        self.common = common
        self.session = session
        self.feed = feed
    }

    /// The last id given out per table, for `RunRecorder.writeLastIDs`.
    var lastIDs: [(String, Int64)] {
        [
            ("workouts", lastWorkoutID), ("workout_events", lastEventID), ("workout_activities", lastActivityID),
            ("workout_statistics", lastStatisticID), ("workout_routes", lastRouteID),
        ]
    }

    func write(_ workout: Workout, into report: inout WriteReport) throws {
        let identity = SampleIdentity.fingerprint(workout)
        if origin == .feed, try !feed.placeWorkout(workout, identity: identity, into: &report) { return }
        // Matching is asked at once (it decides whether anything is written); what it met is reported.
        if try session.matchNested(.workouts, identity: identity) != nil {
            report.countUnchanged(
                .workouts, type: workout.activityType, identity: identity, start: workout.startDate,
                end: workout.endDate, creation: workout.creationDate)
            return
        }
        lastWorkoutID += 1
        let id = lastWorkoutID
        let header = try common.headerColumns(
            id: id, typeColumn: "activity_type", type: workout.activityType, source: workout.source,
            start: workout.startDate, end: workout.endDate, creation: workout.creationDate, metadata: workout.metadata,
            into: &report)
        // local_start is set for all new workouts at the end of the run (WorkoutTotals).
        try statements.workout.run(
            columns: header + [
                ("duration", .nullable(workout.duration)), ("duration_unit", .nullable(workout.durationUnit)),
                ("total_distance", .nullable(workout.totalDistance)),
                ("total_distance_unit", .nullable(workout.totalDistanceUnit)),
                ("total_energy_burned", .nullable(workout.totalEnergyBurned)),
                ("total_energy_burned_unit", .nullable(workout.totalEnergyBurnedUnit)),
                ("raw_total_distance", .nullable(workout.rawTotalDistance?.value)),
                ("raw_total_distance_unit", .nullable(workout.rawTotalDistance?.unit)),
                ("raw_total_energy_burned", .nullable(workout.rawTotalEnergyBurned?.value)),
                ("raw_total_energy_burned_unit", .nullable(workout.rawTotalEnergyBurned?.unit)),
                ("flags", .integer(Int64(workout.flags.rawValue))), ("xml_line", .integer(Int64(workout.line))),
                ("identity", .integer(identity)), ("origin", .integer(origin.rawValue)),
            ])
        report.count(.workouts)
        report.countInserted(
            .workouts, type: workout.activityType, identity: identity, start: workout.startDate, end: workout.endDate,
            creation: workout.creationDate, replacing: false)
        try common.writeMetadata(workout.metadata, parent: .workouts, id: id, into: &report)

        var activityIDs: [Int64] = []
        for activity in workout.activities {
            lastActivityID += 1
            activityIDs.append(lastActivityID)
            try statements.activity.run([
                "id": .integer(lastActivityID),
                "workout_id": .integer(id),
                "uuid": .nullable(activity.uuid),
                "start_date": .instant(activity.startDate),
                "end_date": .instant(activity.endDate),
                "duration": .nullable(activity.duration),
                "duration_unit": .nullable(activity.durationUnit),
            ])
            try common.writeMetadata(activity.metadata, parent: .workoutActivities, id: lastActivityID, into: &report)
        }
        report.count(.workoutActivities, workout.activities.count)
        for event in workout.events {
            lastEventID += 1
            let activity: SQLiteValue = event.activityIndex.map { .integer(activityIDs[$0]) } ?? .null
            try statements.event.run([
                "id": .integer(lastEventID),
                "workout_id": .integer(id),
                "activity_id": activity,
                "type": .text(event.type),
                "date": .instant(event.date),
                "duration": .nullable(event.duration),
                "duration_unit": .nullable(event.durationUnit),
            ])
            try common.writeMetadata(event.metadata, parent: .workoutEvents, id: lastEventID, into: &report)
        }
        report.count(.workoutEvents, workout.events.count)
        for statistic in workout.statistics {
            lastStatisticID += 1
            let activity: SQLiteValue = statistic.activityIndex.map { .integer(activityIDs[$0]) } ?? .null
            try statements.statistic.run([
                "id": .integer(lastStatisticID),
                "workout_id": .integer(id),
                "activity_id": activity,
                "type": .text(statistic.type),
                "start_date": .instant(statistic.startDate),
                "end_date": .instant(statistic.endDate),
                "average": .nullable(statistic.average),
                "minimum": .nullable(statistic.minimum),
                "maximum": .nullable(statistic.maximum),
                "sum": .nullable(statistic.sum),
                "unit": .nullable(statistic.unit),
                "raw_unit": .nullable(statistic.rawUnit),
            ])
        }
        report.count(.workoutStatistics, workout.statistics.count)
        for route in workout.routes { try writeRoute(route, workoutID: id, into: &report) }
    }

    private func writeRoute(_ route: WorkoutRoute, workoutID: Int64, into report: inout WriteReport) throws {
        let sourceID = try common.writeSource(route.source, into: &report)
        let key = keepsHighestSyncVersion ? SyncKey(route.metadata) : nil
        var remember = true
        if let key {
            switch try sync.decision(source: route.source.name, key: key) {
            case .keep: break
            case .drop(let old, _) where session.isActive && old.table == .routes && old.id <= session.routeMaxID:
                // The route of a workout an earlier run stored; it goes (or stays) with that workout, and keeps
                // the sync entry (its version is not lower than this one).
                remember = false
            case .drop:
                report.drop(.routeSuperseded)
                return
            case .replace(let old):
                if !(session.isActive && old.id <= session.routeMaxID) {
                    try session.removeSuperseded(old, into: &report)
                }
            }
        }
        lastRouteID += 1
        let id = lastRouteID
        if let key, remember {
            try sync.remember(source: route.source.name, key: key, row: SyncedRow(table: .routes, id: id))
        }
        try statements.route.run([
            "id": .integer(id),
            "workout_id": .integer(workoutID),
            "source_id": .integer(sourceID),
            "source_name": .text(route.source.name),
            "start_date": .instant(route.startDate),
            "end_date": .instant(route.endDate),
            "creation_date": .instant(route.creationDate),
            "file_path": .nullable(route.filePath),
            "point_count": .integer(Int64(route.points.count)),
            "problem": .nullable(route.problem),
        ])
        report.count(.workoutRoutes)
        try common.writeMetadata(route.metadata, parent: .workoutRoutes, id: id, into: &report)
        try points.write(route.points, routeID: id)
        report.count(.routePoints, route.points.count)
    }
}
