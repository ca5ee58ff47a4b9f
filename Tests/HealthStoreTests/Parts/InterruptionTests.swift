import Glibc
import Testing

@testable import HealthModel
@testable import HealthStore

/// `Interruption` as library users and the test suite meet it: off, it installs nothing and never stops a run.
/// (Its signal path is process-wide, so it is exercised by the command-line kill tests, each in a process of
/// its own, not here beside tests running in parallel.)
struct InterruptionTests {
    @Test func offItInstallsNothingAndNeverStopsARun() throws {
        #expect(Interruption.isEnabled == false)
        let store = try StoreFixture()
        let before = Self.handler(SIGINT)
        Interruption.watch(connection: store.connection, lockPath: "/nonexistent/h.lock", temporaryPath: nil)
        #expect(Self.handler(SIGINT) == before)
        #expect(Interruption.requestedBy == nil)
        #expect(Interruption.error(file: "h.sqlite") == nil)
        try Interruption.check(file: "h.sqlite")
        Interruption.stopWatching()
        #expect(Self.handler(SIGINT) == before)
    }

    /// The address of the handler installed for `signal` (SIG_DFL, SIG_IGN or a function).
    static func handler(_ signal: Int32) -> Int {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
    }

    @Test func signalsAreNamedForPeople() {
        #expect(Interruption.signalName(SIGINT) == "SIGINT (Ctrl-C)")
        #expect(Interruption.signalName(SIGTERM) == "SIGTERM")
        #expect(Interruption.signalName(SIGHUP) == "SIGHUP")
        #expect(Interruption.signalName(SIGUSR1) == "signal \(SIGUSR1)")
    }
}
