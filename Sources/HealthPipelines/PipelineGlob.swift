import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Input globs such as `~/HealthDrop/export*.zip`: a drop folder that collects a new export every week, of
/// which the newest is imported.
enum PipelineGlob {
    static func isPattern(_ path: String) -> Bool { path.contains { "*?[".contains($0) } }

    /// A literal path made safe to put in front of a pattern.
    static func escape(_ literal: String) -> String {
        var result = ""
        for character in literal {
            if "*?[]\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// The paths matching `pattern` (already `~`-expanded: GLOB_TILDE is a GNU extension), newest
    /// modification first; equal times by name, so the choice never depends on the file system's order.
    static func matchesNewestFirst(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(pattern, 0, nil, &result) == 0 else { return [] }
        var paths: [String] = []
        for index in 0..<Int(result.gl_pathc) {
            if let pointer = result.gl_pathv[index] { paths.append(String(cString: pointer)) }
        }
        let dated = paths.map { path -> (String, Date) in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return (path, attributes?[.modificationDate] as? Date ?? .distantPast)
        }
        return dated.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
    }
}

extension PipelineDefinition {
    /// Whether `inputExport` is a glob rather than one path.
    public var inputIsGlob: Bool { PipelineGlob.isPattern(inputExport) }

    /// Every path the input names, the one `resolveInput()` picks first (for a glob: newest first).
    public func inputCandidates() -> [String] {
        if inputIsGlob { return PipelineGlob.matchesNewestFirst(inputExport) }
        return FileManager.default.fileExists(atPath: inputExport) ? [inputExport] : []
    }

    /// The export to read: `inputExport` itself, or the newest match of its glob. Checks the State of Mind
    /// file too, so a run fails before it starts, with every missing input in one error.
    /// - Throws: `PipelineError`.
    public func resolveInput() throws -> String {
        var problems: [PipelineError.Problem] = []
        let candidates = inputCandidates()
        if candidates.isEmpty {
            let message = inputIsGlob ? "no export matches '\(inputExport)'" : "'\(inputExport)' does not exist"
            problems.append(.init(path: "input.export", message: message))
        }
        if let stateOfMind, !FileManager.default.fileExists(atPath: stateOfMind) {
            problems.append(.init(path: "input.stateOfMind", message: "'\(stateOfMind)' does not exist"))
        }
        guard problems.isEmpty, let chosen = candidates.first else {
            throw PipelineError(fileName: fileName, problems: problems)
        }
        return chosen
    }
}
