import Foundation
import HealthModel
import HealthReading
import HealthStages
import HealthStore

/// The two steps every import shares, whatever it reads (an export, a Health Auto Export feed file): items
/// decoded and staged on a second thread while this one writes them, and the summary completed from the sink.
extension ImportJob {
    /// Runs `production` on a decoding thread into a queue this thread empties into `sink`; returns the
    /// production's summary. `writerRoutes`: when the writing thread reads the workouts' route files
    /// (`WorkPlacement`), the resolver it uses. On a failure the decoding thread is stopped and waited for
    /// before the error is rethrown (the caller aborts the sink).
    func transfer(
        _ production: Production, queue: ItemQueue, into sink: SQLiteSink, writerRoutes: inout RouteResolver?
    ) throws -> ImportSummary {
        // `production` is used by the decoding thread alone until it is joined; then `summary` is read here.
        let produced = Handoff(production)
        let decoder = WorkerThread(name: "decode", stackSize: 8 << 20) { _ in produced.value.run(into: queue) }
        do {
            while let batch = try queue.pop() {
                try write(batch, into: sink, writerRoutes: &writerRoutes)
                queue.giveBack(batch)
                try Interruption.check(file: databasePath)
            }
        } catch {
            queue.cancel()
            try? decoder.join()  // `run` throws nothing: its failure came through the queue
            throw FailedTransfer(error: error, summary: produced.value.summary)
        }
        try? decoder.join()
        return produced.value.summary
    }

    /// Writes a received batch: its rows from their columns, its other items by their writers, in document
    /// order. When this thread reads the workouts' route files, each workout's are read just before it is
    /// written (one workout's points in memory at a time).
    private func write(_ received: ItemBatch, into sink: SQLiteSink, writerRoutes: inout RouteResolver?) throws {
        guard var routes = writerRoutes else {
            return try sink.write(received.batch, identitiesFilled: received.hasIdentities)
        }
        defer { writerRoutes = routes }
        try sink.write(received.batch, identitiesFilled: received.hasIdentities) { item in
            if case .workout(var workout) = item, workout.hasUnreadRouteFile {
                routes.resolve(&workout)
                item = .workout(workout)
            }
        }
    }

    /// A transfer that failed, with the summary of how far it got (a failed run's record says so).
    struct FailedTransfer: Error {
        var error: Error
        var summary: ImportSummary
    }

    /// The summary a run starts from: when it started, and what its input is.
    func startSummary(kind: String, mainEntry: String, bytes: UInt64, fingerprint: String?) -> ImportSummary {
        var summary = ImportSummary()
        summary.startedAt = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
        summary.input = inputPath
        summary.inputKind = kind
        summary.mainEntry = mainEntry
        summary.inputBytes = bytes
        summary.inputFingerprint = fingerprint
        return summary
    }

    /// How a run's opening ended: with the sink open for writing, or with the run already complete because
    /// its input is the last successful run's (`--rescan` reads it anyway).
    enum Opening {
        case opened(SQLiteSink)
        case unchanged(ImportSummary)
    }

    /// The opening every run shares: the sink opened with `options` (the unit stage's presence added), the
    /// summary given its time zone, and the unchanged-input shortcut taken and recorded. A failure aborts the
    /// sink, recording `summary`.
    func open(_ summary: inout ImportSummary, options: SQLiteSink.Options, started: ContinuousClock.Instant) throws
        -> Opening
    {
        var options = options
        options.convertsUnits = stages.contains { $0 is UnitStage }
        let sink = try openSink(options)
        summary.timeZone = sink.timeZone.identifier
        do {
            if !rescan, let fingerprint = summary.inputFingerprint, try sink.lastInputFingerprint() == fingerprint {
                summary.finishedAt = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
                summary.seconds = ImportSummary.seconds(ContinuousClock.now - started)
                return .unchanged(try sink.finishUnchanged(summary))
            }
        } catch {
            sink.abort(recording: labeled(error), summary: summary)
            throw labeled(error)
        }
        return .opened(sink)
    }

    /// The run's SQLite sink, with the job's time zone and lock timeout; errors name the database as the job
    /// labels it.
    func openSink(_ options: SQLiteSink.Options) throws -> SQLiteSink {
        do {
            return try SQLiteSink(
                path: databasePath, timeZone: timeZone, options: options,
                lockTimeoutMilliseconds: Int32(lockTimeoutSeconds * 1000))
        } catch {
            throw labeled(error)
        }
    }

    /// Adds what the sink did to `summary` (rows, drops, its warnings, unknown types), lets it finish the run
    /// (bookkeeping, rollups, commit) and returns the summary as committed; on a failure the run is aborted
    /// and recorded.
    func finish(_ sink: SQLiteSink, summary: ImportSummary, started: ContinuousClock.Instant) throws -> ImportSummary {
        var summary = summary
        summary.rows = sink.rowsByTable
        summary.dropped = sink.dropped
        summary.warnings.merge(sink.warnings, uniquingKeysWith: +)
        for (type, count) in sink.unknownTypes {
            summary.warnings["records of a type not in the HealthKit catalog (stored by the fallback rule): \(type)"] =
                count
        }
        summary.finishedAt = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
        summary.seconds = ImportSummary.seconds(ContinuousClock.now - started)
        do {
            summary = try sink.finish(summary)
        } catch {
            sink.abort(recording: labeled(error), summary: summary)
            throw labeled(error)
        }
        summary.seconds = ImportSummary.seconds(ContinuousClock.now - started)
        return summary
    }
}
