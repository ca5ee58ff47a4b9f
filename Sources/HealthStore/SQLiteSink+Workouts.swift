import HealthModel
import HealthSQLite

extension SQLiteSink {
    func writeCorrelation(_ correlation: Correlation) throws {
        let childIdentities = correlation.children.map(SampleIdentity.fingerprint)
        let identity = SampleIdentity.fingerprint(correlation, childIdentities: childIdentities)
        if let existing = try matchNested(.correlations, identity: identity) {
            try markChildrenSeen(ofCorrelation: existing)
            ledger.countUnchanged(
                .correlations, type: correlation.type, identity: identity, start: correlation.startDate, end: correlation.endDate,
                creation: correlation.creationDate)
            return
        }
        ids.correlation += 1
        let id = ids.correlation
        let statement = statements.correlation
        try bindHeader(
            statement, id: id, type: correlation.type, source: correlation.source, start: correlation.startDate,
            end: correlation.endDate, creation: correlation.creationDate, metadata: correlation.metadata)
        statement.bind(10, Int64(correlation.flags.rawValue))
        statement.bind(11, Int64(correlation.line))
        statement.bind(12, identity)
        try statement.run()
        count("correlations")
        ledger.countInserted(
            .correlations, type: correlation.type, identity: identity, start: correlation.startDate, end: correlation.endDate,
            creation: correlation.creationDate, replacing: false)
        try writeMetadata(correlation.metadata, table: "correlations", id: id)
        for (child, identity) in zip(correlation.children, childIdentities) {
            let link: (table: TrackedTable, id: Int64)
            if let existing = try correlationCandidates[identity] {
                link = existing
            } else {
                // Not repeated at top level (against the format's rule): store it once, here.
                guard let (table, childID) = try writeSample(child, identity: identity) else { continue }
                link = (table, childID)
                try correlationCandidates.remember(identity, link)
            }
            try statements.correlationSample.run([.integer(id), .text(link.table.name), .integer(link.id)])
            count("correlation_samples")
        }
    }

    func writeWorkout(_ workout: Workout) throws {
        let identity = SampleIdentity.fingerprint(workout)
        if try matchNested(.workouts, identity: identity) != nil {
            ledger.countUnchanged(
                .workouts, type: workout.activityType, identity: identity, start: workout.startDate, end: workout.endDate,
                creation: workout.creationDate)
            return
        }
        ids.workout += 1
        let id = ids.workout
        let statement = statements.workout
        try bindHeader(
            statement, id: id, type: workout.activityType, source: workout.source, start: workout.startDate,
            end: workout.endDate, creation: workout.creationDate, metadata: workout.metadata)
        statement.bind(10, workout.duration)
        statement.bind(11, workout.durationUnit)
        statement.bind(12, workout.totalDistance)
        statement.bind(13, workout.totalDistanceUnit)
        statement.bind(14, workout.totalEnergyBurned)
        statement.bind(15, workout.totalEnergyBurnedUnit)
        statement.bind(16, workout.rawTotalDistance?.value)
        statement.bind(17, workout.rawTotalDistance?.unit)
        statement.bind(18, workout.rawTotalEnergyBurned?.value)
        statement.bind(19, workout.rawTotalEnergyBurned?.unit)
        statement.bind(20, Int64(workout.flags.rawValue))
        statement.bind(21, Int64(workout.line))
        statement.bind(22, identity)
        statement.bindNull(23)  // local_start: set for all new workouts at the end of the run (WorkoutTotals)
        try statement.run()
        count("workouts")
        ledger.countInserted(
            .workouts, type: workout.activityType, identity: identity, start: workout.startDate, end: workout.endDate,
            creation: workout.creationDate, replacing: false)
        try writeMetadata(workout.metadata, table: "workouts", id: id)

        var activityIDs: [Int64] = []
        for activity in workout.activities {
            ids.activity += 1
            activityIDs.append(ids.activity)
            try statements.activity.run([
                .integer(ids.activity), .integer(id), text(activity.uuid), instantText(activity.startDate),
                instantText(activity.endDate), real(activity.duration), text(activity.durationUnit),
            ])
            try writeMetadata(activity.metadata, table: "workout_activities", id: ids.activity)
        }
        count("workout_activities", workout.activities.count)
        for event in workout.events {
            ids.event += 1
            let activity: SQLiteValue = event.activityIndex.map { .integer(activityIDs[$0]) } ?? .null
            try statements.event.run([
                .integer(ids.event), .integer(id), activity, .text(event.type), instantText(event.date),
                real(event.duration), text(event.durationUnit),
            ])
            try writeMetadata(event.metadata, table: "workout_events", id: ids.event)
        }
        count("workout_events", workout.events.count)
        for statistic in workout.statistics {
            ids.statistic += 1
            let activity: SQLiteValue = statistic.activityIndex.map { .integer(activityIDs[$0]) } ?? .null
            try statements.statistic.run([
                .integer(ids.statistic), .integer(id), activity, .text(statistic.type),
                instantText(statistic.startDate), instantText(statistic.endDate), real(statistic.average),
                real(statistic.minimum), real(statistic.maximum), real(statistic.sum), text(statistic.unit),
                text(statistic.rawUnit),
            ])
        }
        count("workout_statistics", workout.statistics.count)
        for route in workout.routes { try writeRoute(route, workoutID: id) }
    }

    func writeRoute(_ route: WorkoutRoute, workoutID: Int64) throws {
        let sourceID = try writeSource(route.source)
        let sync = Self.syncKey(route.metadata)
        var remember = true
        if let sync {
            switch try syncDecision(source: route.source.name, key: sync) {
            case .keep: break
            case .drop(let table, let id, _)
            where previous.isActive && table == .routes && id <= previous.routeMaxID:
                // The route of a workout an earlier run stored; it goes (or stays) with that workout, and keeps
                // the sync entry (its version is not lower than this one).
                remember = false
            case .drop:
                drops.add(.routeSuperseded)
                return
            case .replace(let table, let id):
                if !(previous.isActive && id <= previous.routeMaxID) { try deleteSuperseded(table: table, id: id) }
            }
        }
        ids.route += 1
        let id = ids.route
        if let sync, remember { try rememberSync(source: route.source.name, key: sync, table: .routes, id: id) }
        try statements.route.run([
            .integer(id), .integer(workoutID), .integer(sourceID), .text(route.source.name),
            instantText(route.startDate), instantText(route.endDate), instantText(route.creationDate),
            text(route.filePath), .integer(Int64(route.points.count)), text(route.problem),
        ])
        count("workout_routes")
        try writeMetadata(route.metadata, table: "workout_routes", id: id)
        var sequence = 0  // a long route's points come back from its temporary file a chunk at a time
        try route.points.forEachChunk { points in
            try statements.point.insert(count: points.count) { statement, first, row in
                let point = points[row]
                statement.bind(first, id)
                statement.bind(first + 1, sequence + row)
                if let time = point.time {
                    bindFractionalUTC(statement, first + 2, time)
                } else {
                    statement.bindNull(first + 2)
                }
                statement.bind(first + 3, point.latitude)
                statement.bind(first + 4, point.longitude)
                statement.bind(first + 5, point.elevation)
                statement.bind(first + 6, point.speed)
                statement.bind(first + 7, point.course)
                statement.bind(first + 8, point.horizontalAccuracy)
                statement.bind(first + 9, point.verticalAccuracy)
            }
            sequence += points.count
        }
        count("route_points", route.points.count)
    }

    /// An unchanged correlation's children are met with it, also those the export did not repeat at top level
    /// (against the format's rule): otherwise the end of the run would take them for deleted.
    func markChildrenSeen(ofCorrelation id: Int64) throws {
        for link in try lookups.correlationChildren.rows([.integer(id)]) {
            guard let name = link[0].text, let table = TrackedTable(name: name), case .integer(let childID) = link[1],
                previous.tables[table.rawValue].isPrevious(childID), previous.tables[table.rawValue].seen.insert(childID),
                let row = try lookups.typeAndIdentity[table.rawValue].rows([.integer(childID)]).first,
                case .integer(let identity) = row[1]
            else { continue }
            ledger.countUnchanged(
                table, type: row[0].text ?? "", identity: identity, startSeconds: row[2].integer,
                endSeconds: row[3].integer, creationSeconds: row[4].integer)
        }
    }
}
