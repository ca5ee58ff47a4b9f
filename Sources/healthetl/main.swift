import Foundation
import HealthETL

// Decides nothing: wires the process to `Tool` and exits with its code.
let tool = Tool(
    standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
    standardError: { FileHandle.standardError.write(Data($0.utf8)) },
    errorIsTerminal: isatty(STDERR_FILENO) != 0)
// Output files are the owner's only: health data is private.
umask(0o077)
Tool.stopRunsOnSignals()
exit(tool.run(Array(CommandLine.arguments.dropFirst())))
