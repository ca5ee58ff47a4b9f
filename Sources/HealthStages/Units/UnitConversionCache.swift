/// Memoised conversion from an exported unit string to a target unit string.
///
/// An import converts millions of values but meets only a handful of distinct (from, to) pairs, so
/// parsing once per pair and remembering the answer (including "not convertible") makes conversion cost
/// a dictionary lookup. Consecutive records usually share their pair (a run of heart-rate samples), so
/// the last answer is kept aside and checked with two string comparisons before hashing.
///
/// Not Sendable: it is mutable state meant to be owned by one stage of the pipeline. Give each thread
/// its own cache rather than sharing one.
public final class UnitConversionCache {
    private struct Pair: Hashable {
        let from: String
        let to: String
    }

    /// Distinct pairs kept before the table is emptied; real exports have a few dozen, so this bound only
    /// matters when a damaged file writes a different garbage unit on every record.
    private static let capacity = 4096

    private var converters: [Pair: UnitConverter?] = [:]
    private var lastFrom = ""
    private var lastTo = ""
    private var lastConverter: UnitConverter?
    private var hasLast = false

    public init() {}

    /// The converter from unit string `from` to unit string `to`, or nil when either does not parse or
    /// they measure different things.
    public func converter(from: String, to: String) -> UnitConverter? {
        if hasLast, from == lastFrom, to == lastTo {
            return lastConverter
        }
        let pair = Pair(from: from, to: to)
        let result: UnitConverter?
        if let cached = converters[pair] {
            result = cached
        } else {
            if let source = HealthUnit.parse(from), let target = HealthUnit.parse(to) {
                result = source.converter(to: target)
            } else {
                result = nil
            }
            if converters.count >= Self.capacity {
                converters.removeAll(keepingCapacity: true)
            }
            converters.updateValue(result, forKey: pair)
        }
        lastFrom = from
        lastTo = to
        lastConverter = result
        hasLast = true
        return result
    }
}

@available(*, unavailable, message: "UnitConversionCache is mutable; give each thread its own")
extension UnitConversionCache: Sendable {}
