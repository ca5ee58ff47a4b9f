/// The one rule for a record whose (type, start, identity) is taken already: with exact duplicates dropped it
/// is a duplicate; with duplicates kept (`--keep-duplicates`, or a record whose dates cannot be read) it takes
/// the next free identity, so the table stays unique and a re-import meets the copies one by one.
///
/// Used by the three places that look an identity up: a first import's insert (the UNIQUE index answers), a
/// first import's record without a start (NULL starts are all different to the index, so it is looked up),
/// and a re-import's match against the rows of earlier runs.
struct DuplicateRule: Equatable {
    /// Whether a taken identity means a duplicate (else: the next identity is tried).
    let dropsDuplicates: Bool

    /// What trying one identity found.
    enum Probe: Equatable {
        case free
        case taken
        /// An earlier run's row that this record is again (re-import): nothing to store.
        case matched(Int64)
    }

    enum Placement: Equatable {
        /// Store the record with this identity.
        case free(identity: Int64)
        /// A second copy within this export: not stored, counted.
        case duplicate
        /// The row (id) of an earlier run, met again.
        case matched(id: Int64)
    }

    /// Tries `identity`, then (duplicates kept) the next ones, until `probe` finds one free or matched.
    @inline(__always)
    func place(_ identity: Int64, probe: (Int64) throws -> Probe) rethrows -> Placement {
        var candidate = identity
        while true {
            switch try probe(candidate) {
            case .free: return .free(identity: candidate)
            case .matched(let id): return .matched(id: id)
            case .taken:
                if dropsDuplicates { return .duplicate }
                candidate &+= 1
            }
        }
    }
}
