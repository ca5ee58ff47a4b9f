import HealthModel

/// What one element may hold (docs/security.md). The decoder keeps an element's children until the element
/// ends, so without a bound one crafted element could take any amount of memory (a Record with a million
/// MetadataEntry children: 306 MB). Real exports stay far below every limit; past one, the import stops with a
/// one-line error naming the element's line and column, and the database is left as it was. Route locations
/// are not limited here: a long activity is real, and its points are kept in bounded memory instead
/// (`RoutePointBuffer`).
extension ExportDecoder {
    /// MetadataEntry children of one element: real records hold a few, vendor apps a dozen or two.
    static let maximumMetadataPerElement = 10_000
    /// InstantaneousBeatsPerMinute of one HRV record: a real list covers about a minute (60–120 beats).
    static let maximumBeatsPerRecord = 100_000
    /// Children of any other one kind in one element (the Records of a Correlation; the WorkoutEvent,
    /// WorkoutStatistics, WorkoutActivity and WorkoutRoute of a Workout; SensitivityPoint; RightEye, LeftEye
    /// and Attachment): real exports write at most a few hundred (the laps of a long race).
    static let maximumChildrenPerElement = 10_000
    /// Elements nested in one top-level element, at every depth, route locations aside: the limits above
    /// multiply (10,000 events of 10,000 metadata entries each), this one does not.
    static let maximumNestedPerElement = 200_000

    /// True when an element that holds `held` children of kind `child` may take one more; else stops the
    /// parser with the error and returns false.
    @inline(__always)
    func admits(_ held: Int?, _ child: ExportElement, in parent: ExportElement, limit: Int) -> Bool {
        guard let held, held >= limit else { return true }
        let what = child == .beat && parent == .record ? "one HRV record" : "one \(parent.rawValue)"
        refuse("more than \(DigitGrouping.grouped(limit)) \(child.rawValue) elements in \(what) (the limit)")
        return false
    }

    /// Counts an element nested in a top-level one (`depth`: its depth, HealthData's children being at 2);
    /// false, after stopping the parser, past `maximumNestedPerElement`.
    @inline(__always)
    func admitsNested(_ element: ExportElement, depth: Int) -> Bool {
        if depth <= 2 {
            nestedInElement = 0
            return true
        }
        if element == .location { return true }
        nestedInElement += 1
        guard nestedInElement > Self.maximumNestedPerElement else { return true }
        let top = stack.count >= 2 ? stack[1].rawValue : "element"
        refuse(
            "more than \(DigitGrouping.grouped(Self.maximumNestedPerElement)) elements nested in one \(top) "
                + "(the limit; route locations aside)")
        return false
    }

    private func refuse(_ message: String) {
        parser?.stop(
            with: ImportError(
                .input, message + ": this is not an export the Health app wrote",
                hint: "real exports stay far below it; docs/security.md lists the limits"))
    }
}
