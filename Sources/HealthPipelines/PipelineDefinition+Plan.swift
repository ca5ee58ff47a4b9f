import Foundation
import HealthImport
import HealthModel
import HealthPostgres
import HealthStages

extension PipelineDefinition {
    /// What running the pipeline does: the same `PipelinePlan` that `healthetl import` builds from its flags.
    /// Resolves the input (the newest match of a glob) first; throws `PipelineError` when it is missing.
    public func plan() throws -> PipelinePlan {
        let input = try resolveInput()
        var job = ImportJob(inputPath: input, databasePath: "", timeZone: timeZone)
        job.stateOfMindPath = stateOfMind
        job.stages = []
        let scope = sampleFilter
        if !scope.isEmpty { job.stages.append(FilterStage(scope)) }
        if unitsEnabled { job.stages.append(UnitStage()) }
        if valenceEnabled { job.stages.append(ValenceStage()) }
        job.storeOptions.dropExactDuplicates = dedupEnabled && dedupExactDuplicates
        job.storeOptions.keepHighestSyncVersion = dedupEnabled && dedupSyncVersions
        job.storeOptions.scope = scope
        job.storeOptions.rollups = rollups
        if !rollupsEnabled { job.storeOptions.rollups.periods = [] }
        if let sqlite {
            job.lockTimeoutSeconds = sqlite.wait
            job.allowOlderExport = sqlite.force
        }
        if let postgres {
            job.lockTimeoutSeconds = postgres.wait
            job.allowOlderExport = postgres.force
        }
        let plan = PipelinePlan(
            job: job, databasePath: sqlite?.path, outputs: outputs.items,
            postgres: postgres.map {
                PostgresDestination(connection: $0.connection, person: $0.person, workingCopies: $0.workingCopies)
            })
        return plan
    }

    /// The filters as instants: `from`/`to` are local dates in the pipeline's time zone (else the machine's).
    var sampleFilter: SampleFilter {
        let zone = timeZone ?? TimeZone.current
        func start(ofDay day: Int?) -> Int64? {
            guard let day else { return nil }
            let midnightUTC = Int64(day) * 86_400
            // The zone's offset at that local midnight (twice: the first guess may sit across a DST change).
            var offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(midnightUTC))))
            offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(midnightUTC - offset))))
            return midnightUTC - offset
        }
        return SampleFilter(
            types: filters.types, sources: filters.sources, from: start(ofDay: filters.fromDay),
            to: start(ofDay: filters.toDay))
    }
}
