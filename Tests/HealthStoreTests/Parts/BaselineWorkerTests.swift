import HealthRollups
import Testing

@testable import HealthStore

/// `BaselineWorker`: metrics sent in parts come back in the order sent, each part's rows those of
/// `Baseline.rows` over the whole metric computed in line.
struct BaselineWorkerTests {
    /// A day every day but every seventh, values rising with a weekly wave.
    static func days(_ count: Int, offset: Double) -> [Baseline.Day] {
        (0..<count).filter { $0 % 7 != 6 }.map {
            Baseline.Day(day: 19_000 + $0, value: offset + Double($0 % 5) + Double($0) / 100)
        }
    }

    @Test func rowsComeBackInOrderAsComputedInLine() {
        let metrics: [(Int64, [Baseline.Day])] = [
            (1, Self.days(3000, offset: 10)), (2, Self.days(40, offset: 0)), (3, []),
        ]
        let worker = BaselineWorker()
        var done: [BaselineWorker.Done] = []
        for (metric, days) in metrics {
            for start in stride(from: 0, to: days.count, by: BaselineWorker.rowsPerJob) {
                let job = BaselineWorker.Job(
                    metric: metric, days: days, indices: start..<min(start + BaselineWorker.rowsPerJob, days.count))
                done += worker.send(job)
            }
        }
        done += worker.finish()
        #expect(done.map(\.metric) == [1, 1, 1, 2])
        #expect(done.flatMap(\.rows) == metrics.flatMap { Baseline.rows($0.1) })
        #expect(done.allSatisfy { $0.rows.count <= BaselineWorker.rowsPerJob })
    }
}
