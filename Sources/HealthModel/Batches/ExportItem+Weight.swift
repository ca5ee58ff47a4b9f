extension ExportItem {
    /// About how many small rows the item becomes (see `SampleBatch.weight`): the memory it holds. A route whose points
    /// are in a temporary file (`RoutePointBuffer`) weighs only those still in memory, plus 1024 for its open
    /// file, so that few such files are open at once; one whose file is left to the writer, what it will hold.
    package var weight: Int {
        switch self {
        case .sample(let sample): return 1 + sample.metadata.count + sample.beats.count
        case .correlation(let correlation): return 1 + correlation.metadata.count + correlation.children.count
        case .workout(let workout):
            return 1 + workout.metadata.count + workout.events.count + workout.statistics.count
                + workout.routes.reduce(0) {
                    $0 + 1 + $1.points.residentCount + ($1.points.isSpilled ? 1024 : 0) + $1.unreadPoints
                }
        case .electrocardiogram(let recording): return 1 + recording.samples.count / 25
        case .document: return 1  // its bytes stay in the file until the sink streams them
        case .clinicalRecord(let record): return 1 + (record.resourceJSON?.utf8.count ?? 0) / 100
        default: return 1
        }
    }
}
