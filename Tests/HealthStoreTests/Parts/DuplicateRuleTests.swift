import Testing

@testable import HealthStore

/// `DuplicateRule`: a taken identity is a duplicate when duplicates are dropped; kept, the next identities are
/// tried until one is free; a row of an earlier run met again ends the search.
struct DuplicateRuleTests {
    @Test func droppingDuplicatesATakenIdentityIsADuplicate() {
        var tried: [Int64] = []
        let rule = DuplicateRule(dropsDuplicates: true)
        #expect(
            rule.place(10) {
                tried.append($0); return .taken
            } == .duplicate)
        #expect(
            rule.place(10) {
                tried.append($0); return .free
            } == .free(identity: 10))
        #expect(tried == [10, 10])
    }

    @Test func keepingDuplicatesTheNextFreeIdentityIsTaken() {
        var tried: [Int64] = []
        let taken: Set<Int64> = [10, 11, 12]
        let rule = DuplicateRule(dropsDuplicates: false)
        #expect(
            rule.place(10) {
                tried.append($0); return taken.contains($0) ? .taken : .free
            } == .free(identity: 13))
        #expect(tried == [10, 11, 12, 13])
        // Identities wrap around at the top of the range instead of trapping.
        #expect(rule.place(Int64.max) { $0 == Int64.max ? .taken : .free } == .free(identity: Int64.min))
    }

    @Test func anEarlierRowMetAgainEndsTheSearch() {
        for drops in [true, false] {
            var tried: [Int64] = []
            let placement = DuplicateRule(dropsDuplicates: drops).place(20) { candidate in
                tried.append(candidate)
                return candidate == 20 && !drops ? .taken : .matched(99)
            }
            #expect(placement == .matched(id: 99))
            #expect(tried == (drops ? [20] : [20, 21]))
        }
    }

    @Test func errorsOfTheProbePassThrough() {
        struct ProbeFailed: Error {}
        #expect(throws: ProbeFailed.self) {
            try DuplicateRule(dropsDuplicates: false).place(1) { _ in throw ProbeFailed() }
        }
    }
}
