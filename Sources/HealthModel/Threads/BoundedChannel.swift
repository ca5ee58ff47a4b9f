import Foundation

/// A queue between threads, bounded by weight: senders wait while it is full, receivers while it is empty.
/// Every worker thread of the import hands its work over through one of these, so back-pressure, an orderly
/// end, a failure passed on in order and cancellation are written once.
///
/// - The bound is on weight (`weight`, 1 per element unless given): one element always fits in an empty
///   channel, so a single heavy element cannot block forever.
/// - With `countsReceived`, the element a receiver took last still counts until the receiver calls
///   `releaseReceived()` or takes the next one: a consumer's work in hand is memory too.
/// - `finish(throwing:)` ends the stream: receivers get what was sent before, then nil or the error.
/// - `cancel()` drops what is queued and wakes everyone: `send` returns false, `receive` nil. The sender still
///   says how it ended (`finish(throwing:)`), which `waitUntilFinished()` waits for: an orderly stop.
///
/// `@unchecked Sendable`: every stored property that changes is read and written only under `condition`.
package final class BoundedChannel<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Queued elements from `head` on; the slots before it are taken and emptied (nil), so a taken element is
    /// never kept alive by the queue.
    private var elements: [(element: Element?, weight: Int)] = []
    private var head = 0
    private var queuedWeight = 0
    private var receivedWeight = 0
    private var finished = false
    private var failure: Error?
    private var cancelled = false
    private let capacity: Int?
    private let weight: @Sendable (Element) -> Int
    private let countsReceived: Bool

    /// `capacity`: the most weight queued (and received, with `countsReceived`) before `send` waits; nil for
    /// no bound (a channel whose receiver must never make the sender wait).
    package init(
        capacity: Int?, countsReceived: Bool = false, weight: @escaping @Sendable (Element) -> Int = { _ in 1 }
    ) {
        precondition(capacity.map { $0 > 0 } ?? true, "a channel holds at least one element")
        self.capacity = capacity
        self.countsReceived = countsReceived
        self.weight = weight
    }

    /// Queues `element`, waiting while it does not fit. False when the channel was cancelled (the element is
    /// dropped: stop producing) or already finished.
    @discardableResult
    package func send(_ element: Element) -> Bool {
        let elementWeight = weight(element)
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && !finished && !fits(elementWeight) { condition.wait() }
        guard !cancelled && !finished else { return false }
        append(element, weight: elementWeight)
        return true
    }

    /// Queues `element` only if it fits now; never waits. False when it did not fit or the channel has ended.
    package func trySend(_ element: Element) -> Bool {
        let elementWeight = weight(element)
        condition.lock()
        defer { condition.unlock() }
        guard !cancelled && !finished && fits(elementWeight) else { return false }
        append(element, weight: elementWeight)
        return true
    }

    /// No more elements will be sent; receivers get the queued ones, then nil, or `error` when given. Also
    /// called after `cancel()`, to tell `waitUntilFinished()` how the sender stopped.
    package func finish(throwing error: Error? = nil) {
        condition.lock()
        defer { condition.unlock() }
        guard !finished else { return }
        finished = true
        failure = error
        condition.broadcast()
    }

    /// The next element, waiting for one; nil once the channel is finished and empty, or cancelled. Throws the
    /// error it was finished with, after the elements sent before it, and again on every later call.
    package func receive() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        // Asking for the next element ends the last one: a receiver that waits while its last element still
        // counted could keep a sender waiting for room forever.
        if countsReceived && receivedWeight > 0 {
            receivedWeight = 0
            condition.broadcast()
        }
        while !cancelled && head == elements.count && !finished { condition.wait() }
        if let element = takeFirst() { return element }
        if let failure, !cancelled { throw failure }
        return nil
    }

    /// After `cancel()`, by the side that cancelled: waits until the sender has stopped (`finish`) and
    /// rethrows the error it stopped with.
    package func waitUntilFinished() throws {
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
        if let failure { throw failure }
    }

    /// Every element queued now, without waiting (a receiver that polls between other work).
    package func drain() -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        var drained: [Element] = []
        drained.reserveCapacity(elements.count - head)
        while let element = takeFirst() { drained.append(element) }
        if countsReceived { receivedWeight = 0 }
        condition.broadcast()
        return drained
    }

    /// With `countsReceived`: the receiver is done with the element it took last.
    package func releaseReceived() {
        condition.lock()
        defer { condition.unlock() }
        receivedWeight = 0
        condition.broadcast()
    }

    /// Drops what is queued and ends the channel for both sides: a blocked `send` returns false, `receive` nil.
    package func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        elements.removeAll()
        head = 0
        queuedWeight = 0
        receivedWeight = 0
        condition.broadcast()
    }

    package var isCancelled: Bool { condition.withLock { cancelled } }

    /// The weight queued now, not counting what the receiver holds (a sender asking whether the receiver is
    /// about to wait).
    package var queuedWeightNow: Int { condition.withLock { queuedWeight } }

    /// True once `finish` was called (or `cancel`): nothing more can be sent.
    package var isFinished: Bool { condition.withLock { finished || cancelled } }

    // MARK: Under the lock

    private func fits(_ elementWeight: Int) -> Bool {
        guard let capacity else { return true }
        let held = queuedWeight + receivedWeight
        return held == 0 || held + elementWeight <= capacity
    }

    private func append(_ element: Element, weight elementWeight: Int) {
        elements.append((element, elementWeight))
        queuedWeight += elementWeight
        condition.broadcast()
    }

    private func takeFirst() -> Element? {
        guard head < elements.count else { return nil }
        let (element, elementWeight) = elements[head]
        elements[head].element = nil
        head += 1
        // Compacted once the taken prefix is half the array: O(1) per element, no unbounded growth.
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 16 && head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        queuedWeight -= elementWeight
        if countsReceived { receivedWeight = elementWeight }
        condition.broadcast()
        return element
    }
}
