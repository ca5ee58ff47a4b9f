/// Why a record was not stored. `summaryKey` is the key of `ImportSummary.dropped`, whose text is part of the
/// summary's JSON (`import_runs.summary_json`, `--json`): it is written here once.
enum DropReason: Int, CaseIterable {
    case exactDuplicate
    /// A sync version not higher than the stored one.
    case superseded
    /// Stored in this run, then replaced by a higher sync version that came later in the export.
    case replaced
    case routeSuperseded

    var summaryKey: String {
        switch self {
        case .exactDuplicate: "exact duplicate records"
        case .superseded: "records superseded by a higher sync version"
        case .replaced: "records replaced by a higher sync version"
        case .routeSuperseded: "routes superseded by a higher sync version"
        }
    }
}

/// Records not stored, by reason: every dropped record is counted. Inline storage, as `RowCounts`.
struct DropCounts {
    /// One counter per `DropReason` (a test checks `capacity` against `allCases`).
    private var counts = InlineArray<4, Int>(repeating: 0)
    var capacity: Int { counts.count }

    mutating func add(_ reason: DropReason) { counts[reason.rawValue] += 1 }

    @inline(__always) mutating func add(_ other: DropCounts) {
        for index in counts.indices { counts[index] += other.counts[index] }
    }

    subscript(reason: DropReason) -> Int { counts[reason.rawValue] }

    /// By the summary's keys, leaving out reasons that did not occur.
    var bySummaryKey: [String: Int] {
        var result: [String: Int] = [:]
        for reason in DropReason.allCases where counts[reason.rawValue] > 0 {
            result[reason.summaryKey] = counts[reason.rawValue]
        }
        return result
    }
}
