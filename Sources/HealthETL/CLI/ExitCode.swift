import HealthModel

/// Exit codes of `healthetl` (documented in the README), from BSD's sysexits where one fits.
public enum ExitCode: Int32 {
    case success = 0
    /// A failure that fits no other code.
    case failure = 1
    /// Bad arguments (EX_USAGE).
    case usage = 64
    /// The export is missing, not an export, truncated or malformed (EX_DATAERR).
    case badInput = 65
    /// A bug in healthetl (EX_SOFTWARE).
    case internalError = 70
    /// The database or output cannot be written (EX_CANTCREAT).
    case cannotWrite = 73
    /// A server the run needs (PostgreSQL) cannot be reached (EX_UNAVAILABLE).
    case unavailable = 69
    /// Another process holds the database; try again later (EX_TEMPFAIL).
    case locked = 75
    /// A pipeline definition is invalid; nothing ran (EX_CONFIG).
    case badConfiguration = 78
    /// Stopped by Ctrl-C (the shell's 128 + SIGINT); SIGTERM and SIGHUP give 128 + their number.
    case interrupted = 130

    init(_ kind: ImportError.Kind) {
        switch kind {
        case .usage: self = .usage
        case .input, .refused: self = .badInput
        case .output: self = .cannotWrite
        case .locked: self = .locked
        case .unavailable: self = .unavailable
        case .internal: self = .internalError
        case .interrupted: self = .interrupted
        }
    }
}
