import Foundation
import Testing

@testable import HealthModel
@testable import HealthStages

struct ValenceStageTests {
    func run(_ valences: [Double?]) throws -> ([StateOfMindEntry], [String: Int]) {
        var stage = ValenceStage()
        var out: [StateOfMindEntry] = []
        for valence in valences {
            var entry = StateOfMindEntry(source: "test", origin: "test")
            entry.valence = valence
            try stage.process(.stateOfMind(entry)) { item in
                if case .stateOfMind(let kept) = item { out.append(kept) }
            }
        }
        return (out, stage.report)
    }

    @Test func shiftsValenceAndReportsPercent() throws {
        let (entries, report) = try run([-1, -0.8, 0, 0.8, 1])
        let shifted = entries.compactMap(\.valenceShifted)
        let percent = entries.compactMap(\.valencePercent)
        #expect(zip(shifted, [0, 0.2, 1, 1.8, 2]).allSatisfy { abs($0 - $1) < 1e-12 } && shifted.count == 5)
        #expect(zip(percent, [0, 10, 50, 90, 100]).allSatisfy { abs($0 - $1) < 1e-9 } && percent.count == 5)
        #expect(report.isEmpty)
    }

    /// One very pleasant and one very unpleasant day: the mean of the percents says where each day was
    /// relative to the scale; averaging raw valence would land on "neutral" 0 and lose the sign of both.
    @Test func averagesAreTakenOnTheShiftedScale() throws {
        let (entries, _) = try run([0.8, -0.8])
        let percents = entries.compactMap(\.valencePercent)
        #expect(percents.count == 2 && abs(percents[0] - 90) < 1e-9 && abs(percents[1] - 10) < 1e-9)
        #expect(entries.compactMap(\.valenceShifted).allSatisfy { $0 >= 0 && $0 <= 2 })
    }

    @Test func outOfRangeValenceIsDroppedAndCountedNotClamped() throws {
        let (entries, report) = try run([1.5, -1.01, .nan, 0.5, nil])
        #expect(entries.count == 2)
        #expect(entries.first?.valence == 0.5)
        #expect(entries.last?.valencePercent == nil)
        #expect(report["state of mind entries with a valence outside [-1, 1] (not stored)"] == 3)
        #expect(report["state of mind entries without a valence (kept, no percent)"] == 1)
    }

    @Test func otherItemsPassThrough() throws {
        var stage = ValenceStage()
        var passed = 0
        try stage.process(.header(locale: "en_US", exportDate: nil)) { _ in passed += 1 }
        #expect(passed == 1)
    }
}
