import Foundation

/// A thread that runs one body to its end, can be asked to stop, and is joined: its error comes back to the
/// thread that joins it. With `BoundedChannel` it is the project's one way to run work beside the caller.
///
/// `@unchecked Sendable`: every stored property that changes is read and written only under `condition`.
package final class WorkerThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopRequested = false
    private var ended = false
    private var failure: Error?

    /// Starts `body` on a new thread named `name` (seen in a debugger and in `top -H`). `stackSize`: for deep
    /// recursion (the XML parser's stages), else the system's default.
    package init(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable (WorkerThread) throws -> Void) {
        let thread = Thread { [self] in
            // Foundation on Linux names the system thread (what `top -H` shows) only when the name is set from
            // the thread itself; set before `start()` it stays Foundation's own.
            Thread.current.name = name
            var failure: Error?
            do { try body(self) } catch { failure = error }
            condition.withLock {
                self.failure = failure
                ended = true
                condition.broadcast()
            }
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Asks the body to stop: `isStopping` becomes true and `pause` returns at once. A body that waits on a
    /// channel is stopped by cancelling the channel instead.
    package func stop() {
        condition.withLock {
            stopRequested = true
            condition.broadcast()
        }
    }

    package var isStopping: Bool { condition.withLock { stopRequested } }

    /// Called by the body: waits `seconds` or until `stop()`; true when the body should go on.
    package func pause(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stopRequested && condition.wait(until: deadline) {}
        return !stopRequested
    }

    /// Waits for the body to end; rethrows what it threw.
    package func join() throws {
        condition.lock()
        defer { condition.unlock() }
        while !ended { condition.wait() }
        if let failure { throw failure }
    }

    /// Waits at most `seconds` for the body to end: true when it has. Rethrows what it threw.
    package func join(waitingAtMost seconds: Double) throws -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !ended && condition.wait(until: deadline) {}
        if let failure { throw failure }
        return ended
    }
}
