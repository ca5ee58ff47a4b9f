/// A kind of output as pipelines know it: its sink key, the fields its sink object may have, and how it is
/// read from one. `registered` is the one list of kinds; the parser, `--dry-run` and the plan go through it,
/// so a new output is its own target plus one entry here (docs/architecture.md, "How to add an output").
struct PipelineOutputKind: Sendable {
    /// The sink object's key that names the kind (`{"csv": "<folder>"}`), also `RunOutput.key`.
    let key: String
    /// Every field its sink object may have, the key included.
    let fields: [String]
    /// For a kind drawn from the database of the run's SQLite sink (`RunOutput.needsKeptDatabase`): what to say
    /// when the pipeline has none; nil for the others.
    let keptDatabaseProblem: String?
    /// Reads the sink object at `path`; problems go to the parser's reader.
    let parse: @Sendable (_ parser: inout PipelineParser, _ object: [String: Any], _ path: String) -> (any RunOutput)?

    static let registered: [PipelineOutputKind] = [
        .csvFolder, .htmlReport, .parquetLake, .deidentifiedCopy, .workoutFiles, .fhir, .ieee1752,
    ]
}
