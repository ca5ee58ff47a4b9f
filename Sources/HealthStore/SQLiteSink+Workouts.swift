import HealthModel
import HealthSQLite
import HealthSchema

extension SQLiteSink {
    func writeCorrelation(_ correlation: Correlation) throws {
        let childIdentities = correlation.children.map(SampleIdentity.fingerprint)
        let identity = SampleIdentity.fingerprint(correlation, childIdentities: childIdentities)
        if let existing = try matchNested(.correlations, identity: identity) {
            try markChildrenSeen(ofCorrelation: existing)
            ledger.countUnchanged(
                .correlations, type: correlation.type, identity: identity, start: correlation.startDate,
                end: correlation.endDate,
                creation: correlation.creationDate)
            return
        }
        ids.correlation += 1
        let id = ids.correlation
        let header = try headerColumns(
            id: id, type: correlation.type, source: correlation.source, start: correlation.startDate,
            end: correlation.endDate, creation: correlation.creationDate, metadata: correlation.metadata)
        try statements.correlation.run(
            columns: header + [
                ("flags", .integer(Int64(correlation.flags.rawValue))), ("xml_line", .integer(Int64(correlation.line))),
                ("identity", .integer(identity)),
            ])
        count(.correlations)
        ledger.countInserted(
            .correlations, type: correlation.type, identity: identity, start: correlation.startDate,
            end: correlation.endDate,
            creation: correlation.creationDate, replacing: false)
        try writeMetadata(correlation.metadata, parent: .correlations, id: id)
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
            try statements.correlationSample.run([
                "correlation_id": .integer(id),
                "sample_table": .text(link.table.name),
                "sample_id": .integer(link.id),
            ])
            count(.correlationSamples)
        }
    }

    func writeWorkout(_ workout: Workout) throws {
        let identity = SampleIdentity.fingerprint(workout)
        if options.feed, try !placeFeedWorkout(workout, identity: identity) { return }  // FeedMerge.swift
        if try matchNested(.workouts, identity: identity) != nil {
            ledger.countUnchanged(
                .workouts, type: workout.activityType, identity: identity, start: workout.startDate,
                end: workout.endDate,
                creation: workout.creationDate)
            return
        }
        ids.workout += 1
        let id = ids.workout
        let header = try headerColumns(
            id: id, typeColumn: "activity_type", type: workout.activityType, source: workout.source,
            start: workout.startDate, end: workout.endDate, creation: workout.creationDate, metadata: workout.metadata)
        // local_start is set for all new workouts at the end of the run (WorkoutTotals).
        try statements.workout.run(
            columns: header + [
                ("duration", real(workout.duration)), ("duration_unit", text(workout.durationUnit)),
                ("total_distance", real(workout.totalDistance)),
                ("total_distance_unit", text(workout.totalDistanceUnit)),
                ("total_energy_burned", real(workout.totalEnergyBurned)),
                ("total_energy_burned_unit", text(workout.totalEnergyBurnedUnit)),
                ("raw_total_distance", real(workout.rawTotalDistance?.value)),
                ("raw_total_distance_unit", text(workout.rawTotalDistance?.unit)),
                ("raw_total_energy_burned", real(workout.rawTotalEnergyBurned?.value)),
                ("raw_total_energy_burned_unit", text(workout.rawTotalEnergyBurned?.unit)),
                ("flags", .integer(Int64(workout.flags.rawValue))), ("xml_line", .integer(Int64(workout.line))),
                ("identity", .integer(identity)), ("origin", .integer(feedOrigin)),
            ])
        count(.workouts)
        ledger.countInserted(
            .workouts, type: workout.activityType, identity: identity, start: workout.startDate, end: workout.endDate,
            creation: workout.creationDate, replacing: false)
        try writeMetadata(workout.metadata, parent: .workouts, id: id)

        var activityIDs: [Int64] = []
        for activity in workout.activities {
            ids.activity += 1
            activityIDs.append(ids.activity)
            try statements.activity.run([
                "id": .integer(ids.activity),
                "workout_id": .integer(id),
                "uuid": text(activity.uuid),
                "start_date": instantText(activity.startDate),
                "end_date": instantText(activity.endDate),
                "duration": real(activity.duration),
                "duration_unit": text(activity.durationUnit),
            ])
            try writeMetadata(activity.metadata, parent: .workoutActivities, id: ids.activity)
        }
        count(.workoutActivities, workout.activities.count)
        for event in workout.events {
            ids.event += 1
            let activity: SQLiteValue = event.activityIndex.map { .integer(activityIDs[$0]) } ?? .null
            try statements.event.run([
                "id": .integer(ids.event),
                "workout_id": .integer(id),
                "activity_id": activity,
                "type": .text(event.type),
                "date": instantText(event.date),
                "duration": real(event.duration),
                "duration_unit": text(event.durationUnit),
            ])
            try writeMetadata(event.metadata, parent: .workoutEvents, id: ids.event)
        }
        count(.workoutEvents, workout.events.count)
        for statistic in workout.statistics {
            ids.statistic += 1
            let activity: SQLiteValue = statistic.activityIndex.map { .integer(activityIDs[$0]) } ?? .null
            try statements.statistic.run([
                "id": .integer(ids.statistic),
                "workout_id": .integer(id),
                "activity_id": activity,
                "type": .text(statistic.type),
                "start_date": instantText(statistic.startDate),
                "end_date": instantText(statistic.endDate),
                "average": real(statistic.average),
                "minimum": real(statistic.minimum),
                "maximum": real(statistic.maximum),
                "sum": real(statistic.sum),
                "unit": text(statistic.unit),
                "raw_unit": text(statistic.rawUnit),
            ])
        }
        count(.workoutStatistics, workout.statistics.count)
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
            "id": .integer(id),
            "workout_id": .integer(workoutID),
            "source_id": .integer(sourceID),
            "source_name": .text(route.source.name),
            "start_date": instantText(route.startDate),
            "end_date": instantText(route.endDate),
            "creation_date": instantText(route.creationDate),
            "file_path": text(route.filePath),
            "point_count": .integer(Int64(route.points.count)),
            "problem": text(route.problem),
        ])
        count(.workoutRoutes)
        try writeMetadata(route.metadata, parent: .workoutRoutes, id: id)
        try pointWriter.write(route.points, routeID: id)
        count(.routePoints, route.points.count)
    }

    /// An unchanged correlation's children are met with it, also those the export did not repeat at top level
    /// (against the format's rule): otherwise the end of the run would take them for deleted.
    func markChildrenSeen(ofCorrelation id: Int64) throws {
        for link in try lookups.correlationChildren.rows([.integer(id)]) {
            guard let name = link[0].text, let table = TrackedTable(name: name), case .integer(let childID) = link[1],
                previous.tables[table.rawValue].isPrevious(childID),
                previous.tables[table.rawValue].seen.insert(childID),
                let row = try lookups.typeAndIdentity[table.rawValue].rows([.integer(childID)]).first,
                case .integer(let identity) = row[1]
            else { continue }
            ledger.countUnchanged(
                table, type: row[0].text ?? "", identity: identity, startSeconds: row[2].integer,
                endSeconds: row[3].integer, creationSeconds: row[4].integer)
        }
    }
}
