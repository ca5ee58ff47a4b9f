import Foundation

/// The one way the tests run another program: to its end with its output captured (`run`), or in the
/// background for a test that watches, signals or kills it while it works (`start`).
package enum ProcessRunner {
    /// What a program did: its exit status (128 + the signal when one killed it, as a shell reports it), what
    /// it wrote, its process id (it may be reused once the program has ended), and whether the time limit
    /// stopped it.
    package struct Result: Sendable {
        package var status: Int32
        package var output: String
        package var error: String
        package var processIdentifier: Int32
        package var timedOut: Bool
    }

    /// Where the standard output or error of a program started in the background goes.
    package enum Destination: Sendable {
        /// /dev/null.
        case discard
        /// The test runner's own.
        case inherit
        /// A file, created or truncated.
        case file(String)
    }

    package struct NotFound: Error, CustomStringConvertible {
        package let program: String
        package var description: String { "\(program) is not on PATH" }
    }

    /// The path of the first of `names` that is an executable: a name with a `/` as it is, any other searched
    /// for on PATH; nil when there is none.
    package static func find(_ names: String...) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            if name.contains("/") {
                if FileManager.default.isExecutableFile(atPath: name) { return name }
                continue
            }
            for folder in folders {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Runs `program` (a path, or a name found on PATH) to its end and returns its status and output. Both
    /// streams are read while it runs, so a large output cannot fill a pipe and stall it; `input` is written
    /// to its standard input, which is then closed. After `timeout` seconds it is killed with SIGKILL (a
    /// child of the test runner inherits its blocked signals, so SIGTERM could stay pending).
    /// `mergeError` sends the standard error into `output`, in the order written.
    package static func run(
        _ program: String, _ arguments: [String] = [], environment: [String: String]? = nil, input: String? = nil,
        mergeError: Bool = false, timeout: Double = 180
    ) throws -> Result {
        let process = try makeProcess(program, arguments, environment: environment)
        let output = Pipe()
        let error = mergeError ? output : Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let outputData = LockedData()
        let errorData = LockedData()
        let readers = DispatchGroup()
        for (pipe, sink) in mergeError ? [(output, outputData)] : [(output, outputData), (error, errorData)] {
            DispatchQueue.global().async(group: readers) { sink.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
        }
        // Written on a thread of its own too: a program that does not read its input must not block the test.
        let writer = standardInput.fileHandleForWriting
        DispatchQueue.global().async(group: readers) {
            if let input { try? writer.write(contentsOf: Data(input.utf8)) }
            try? writer.close()
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        readers.wait()
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(
            status: status, output: String(decoding: outputData.get(), as: UTF8.self),
            error: String(decoding: errorData.get(), as: UTF8.self), processIdentifier: process.processIdentifier,
            timedOut: timedOut)
    }

    /// Starts `program` in the background and returns it running; the test waits for it, signals it or
    /// kills it (`stop`). Its standard input is /dev/null.
    package static func start(
        _ program: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        output: Destination = .discard, error: Destination = .discard
    ) throws -> Process {
        let process = try makeProcess(program, arguments, environment: environment)
        process.standardInput = FileHandle.nullDevice
        let outputHandle = try handle(output)
        if case .file(let outputPath) = output, case .file(let errorPath) = error, outputPath == errorPath {
            // One file for both, written through one handle, so neither overwrites the other.
            process.standardOutput = outputHandle
            process.standardError = outputHandle
        } else {
            process.standardOutput = outputHandle
            process.standardError = try handle(error)
        }
        try process.run()
        return process
    }

    /// Kills a program started by `start` with SIGKILL (see `run`) and waits for it.
    package static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static func makeProcess(_ program: String, _ arguments: [String], environment: [String: String]?) throws
        -> Process
    {
        guard let path = find(program) else { throw NotFound(program: program) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        return process
    }

    private static func handle(_ destination: Destination) throws -> Any? {
        switch destination {
        case .discard: return FileHandle.nullDevice
        case .inherit: return nil
        case .file(let path):
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
    }
}

/// Bytes handed over from a reading thread.
package final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    package init() {}
    package func set(_ value: Data) { lock.withLock { data = value } }
    package func get() -> Data { lock.withLock { data } }
}

/// The built `healthetl` command run as a user runs it, for the tests of a layer below the command line (a
/// reading peer's test target does not link the CLI). `ProcessRunner.run`'s time limit applies.
package enum HealthetlCommand {
    package struct Missing: Error, CustomStringConvertible {
        package var description: String { "the healthetl executable is not built (swift build --build-tests)" }
    }

    /// Exit status, standard output and standard error of `healthetl arguments…`.
    package static func run(_ arguments: [String], timeout: Double = 180) throws -> (
        code: Int32, out: String, err: String
    ) {
        guard let program = Fixtures.healthetl else { throw Missing() }
        let result = try ProcessRunner.run(program, arguments, timeout: timeout)
        return (result.status, result.output, result.error)
    }
}
