import HealthPipelines

extension CommandDescription {
    static let runCommand = CommandDescription(
        name: "run", abstract: "Run a pipeline file: input, filters, stages and sinks in one JSON definition.",
        usage: ["run <pipeline.json> [--dry-run] [--quiet] [--json]"],
        arguments: [
            Argument("<pipeline.json>", help: "The pipeline definition; checked completely before anything runs.")
        ],
        options: [
            Option("--dry-run", help: "Print what the pipeline would do, without reading or writing."), .quiet, .json,
        ],
        examples: [
            "healthetl run pipelines/nightly-incremental.json --quiet",
            "healthetl run --dry-run pipelines/research-subset.json",
        ])
}

extension Tool {
    /// `healthetl run pipeline.json [--dry-run]`: the whole definition is checked before anything runs.
    func runPipeline(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(rawArguments, for: .runCommand)
        } catch {
            return usageError(error)
        }
        guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
            return usageError(UsageError(message: "Expected one argument: the pipeline file (pipelines/nightly.json)"))
        }
        let definition: PipelineDefinition
        let plan: PipelinePlan
        do {
            definition = try PipelineDefinition.load(path: file)
            if arguments.flags.contains("--dry-run") {
                standardOutput(definition.describe())
            }
            plan = try definition.plan()
        } catch let error as PipelineError {
            standardError(error.description.split(separator: "\n").map { "healthetl: \($0)\n" }.joined())
            return ExitCode.badConfiguration.rawValue
        } catch {
            standardError("healthetl: \(file): error: \(error)\n")
            return ExitCode.internalError.rawValue
        }
        if arguments.flags.contains("--dry-run") {
            standardOutput("Dry run: nothing was read or written.\n")
            return 0
        }
        return runPlan(plan, quiet: arguments.flags.contains("--quiet"), json: arguments.flags.contains("--json"))
    }
}
