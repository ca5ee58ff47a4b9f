import Foundation
import HealthETL
import HealthStore

// Decides nothing: wires the process to `Tool` and exits with its code.
let tool = Tool(
    standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
    standardError: { FileHandle.standardError.write(Data($0.utf8)) },
    errorIsTerminal: isatty(STDERR_FILENO) != 0)
// Output files are the owner's only: health data is private.
umask(0o077)
// Ctrl-C or SIGTERM during a run rolls it back (or deletes its unfinished new file) and removes its lock file.
Interruption.isEnabled = true
exit(tool.run(Array(CommandLine.arguments.dropFirst())))
