import Foundation
import Testing

@testable import HealthModel

/// `BoundedChannel` and `WorkerThread`: the one queue and the one thread every worker of the import is built
/// from. No test sleeps to let something happen: threads are coordinated by the channels themselves, and a
/// wait that must end has a deadline (`join(waitingAtMost:)`) so a broken channel fails instead of hanging.
struct BoundedChannelTests {
    struct Failure: Error, Equatable { var code: Int }

    /// Long enough for any machine; reached only when the channel under test is broken.
    static let deadline = 30.0

    @Test("Elements come out in order, then nil at the end, and nil again")
    func order() throws {
        let channel = BoundedChannel<Int>(capacity: nil)
        for value in 1...200 { #expect(channel.send(value)) }
        channel.finish()
        var received: [Int] = []
        while let value = try channel.receive() { received.append(value) }
        #expect(received == Array(1...200))
        #expect(try channel.receive() == nil)
        #expect(!channel.send(201), "a finished channel takes nothing more")
    }

    @Test("A sender's error arrives after the elements sent before it, and on every later receive")
    func errorAfterElements() throws {
        let channel = BoundedChannel<Int>(capacity: 4)
        channel.send(1)
        channel.send(2)
        channel.finish(throwing: Failure(code: 7))
        #expect(try channel.receive() == 1)
        #expect(try channel.receive() == 2)
        #expect(throws: Failure(code: 7)) { try channel.receive() }
        #expect(throws: Failure(code: 7)) { try channel.receive() }
    }

    @Test("The bound is on weight, and one element always fits an empty channel")
    func weight() throws {
        let channel = BoundedChannel<Int>(capacity: 10) { $0 }
        #expect(channel.trySend(6))
        #expect(!channel.trySend(5), "6 + 5 is over 10")
        #expect(channel.trySend(4))
        #expect(try channel.receive() == 6)
        #expect(channel.trySend(6))
        #expect(channel.drain() == [4, 6])
        #expect(channel.trySend(100), "alone, an element heavier than the bound still goes")
        #expect(!channel.trySend(1))
    }

    @Test("With countsReceived, the element taken last counts until it is released or the next is taken")
    func receivedWeight() throws {
        let channel = BoundedChannel<Int>(capacity: 10, countsReceived: true) { $0 }
        channel.send(8)
        #expect(try channel.receive() == 8)
        #expect(!channel.trySend(5), "8 in the receiver's hands + 5 is over 10")
        channel.releaseReceived()
        #expect(channel.trySend(5))
        #expect(channel.trySend(3))
        #expect(try channel.receive() == 5)
        #expect(!channel.trySend(3), "5 taken + 3 queued + 3 is over 10")
        #expect(try channel.receive() == 3)
        #expect(channel.trySend(3), "taking the next element ended the last one")
    }

    @Test("A receiver that asks for the next element without releasing the last one does not block the sender")
    func receivingEndsTheLastElement() throws {
        let channel = BoundedChannel<Int>(capacity: 10, countsReceived: true) { $0 }
        channel.send(30)  // heavier than the bound: alone, it fits
        #expect(try channel.receive() == 30)
        let sender = WorkerThread(name: "sender") { _ in channel.send(4) }
        let received = BoundedChannel<Int?>(capacity: nil)
        let receiver = WorkerThread(name: "receiver") { _ in received.send(try channel.receive()) }
        #expect(try receiver.join(waitingAtMost: Self.deadline), "the receiver waited for room it held itself")
        #expect(try sender.join(waitingAtMost: Self.deadline))
        #expect(received.drain() == [4])
    }

    @Test("A sender waits for room (back-pressure) and goes on when the receiver takes an element")
    func backPressure() throws {
        let channel = BoundedChannel<Int>(capacity: 1)
        channel.send(1)
        let sent = BoundedChannel<Bool>(capacity: nil)
        let sender = WorkerThread(name: "sender") { _ in sent.send(channel.send(2)) }
        #expect(try !sender.join(waitingAtMost: 0.05), "the channel is full: the sender must still be waiting")
        #expect(sent.drain().isEmpty)
        #expect(try channel.receive() == 1)
        #expect(try sender.join(waitingAtMost: Self.deadline))
        #expect(sent.drain() == [true])
        #expect(try channel.receive() == 2)
    }

    @Test("Cancelling wakes a waiting sender (send returns false) and a waiting receiver (nil)")
    func cancellation() throws {
        let full = BoundedChannel<Int>(capacity: 1)
        full.send(1)
        let sent = BoundedChannel<Bool>(capacity: nil)
        let sender = WorkerThread(name: "sender") { _ in sent.send(full.send(2)) }
        let empty = BoundedChannel<Int>(capacity: 1)
        let received = BoundedChannel<Int?>(capacity: nil)
        let receiver = WorkerThread(name: "receiver") { _ in received.send(try empty.receive()) }
        full.cancel()
        empty.cancel()
        #expect(try sender.join(waitingAtMost: Self.deadline))
        #expect(try receiver.join(waitingAtMost: Self.deadline))
        #expect(sent.drain() == [false])
        #expect(received.drain() == [nil])
        #expect(full.isCancelled && full.isFinished)
        #expect(try full.receive() == nil, "what was queued is dropped")
        #expect(!full.trySend(3))
    }

    @Test("After a cancel, the receiver can wait for the sender to stop and learn how it stopped")
    func orderlyCancel() throws {
        let channel = BoundedChannel<Int>(capacity: 1)
        let sender = WorkerThread(name: "sender") { _ in
            var value = 0
            while channel.send(value) { value += 1 }
            channel.finish(throwing: Failure(code: value))
        }
        #expect(try channel.receive() == 0)
        channel.cancel()
        #expect(throws: Failure.self) { try channel.waitUntilFinished() }
        #expect(try sender.join(waitingAtMost: Self.deadline))
        #expect(try channel.receive() == nil)
    }

    @Test("A worker's error comes back from join; join with a deadline says whether the body has ended")
    func workerError() throws {
        let gate = BoundedChannel<Int>(capacity: nil)
        let worker = WorkerThread(name: "failing") { _ in
            _ = try gate.receive()
            throw Failure(code: 3)
        }
        #expect(try !worker.join(waitingAtMost: 0.01), "it waits for the gate")
        gate.send(1)
        #expect(throws: Failure(code: 3)) { try worker.join() }
        #expect(throws: Failure(code: 3)) { try worker.join(waitingAtMost: 0) }
    }

    @Test("stop() ends a worker's pause at once and the body sees it")
    func orderlyStop() throws {
        let rounds = BoundedChannel<Int>(capacity: nil)
        let worker = WorkerThread(name: "ticking") { thread in
            rounds.send(0)
            while thread.pause(seconds: 600) { rounds.send(1) }
            #expect(thread.isStopping)
        }
        _ = try rounds.receive()  // the body has started
        worker.stop()
        #expect(try worker.join(waitingAtMost: Self.deadline), "a pause of 600 s must end at stop()")
        #expect(rounds.drain().isEmpty, "the pause was not cut short before stop()")
    }

    final class Payload: Sendable {}

    @Test("A taken element is not kept alive by the channel while others stay queued")
    func takenElementsAreReleased() throws {
        let channel = BoundedChannel<Payload>(capacity: nil)
        weak var first: Payload?
        do {
            let payload = Payload()
            first = payload
            channel.send(payload)
        }
        for _ in 0..<3 { channel.send(Payload()) }
        _ = try channel.receive()
        #expect(first == nil, "the queue still held the element it handed out")
        #expect(channel.drain().count == 3)
    }

    @Test("Many elements through a small channel between two threads arrive complete and in order")
    func throughput() throws {
        let channel = BoundedChannel<Int>(capacity: 3)
        let producer = WorkerThread(name: "producer") { _ in
            for value in 0..<10_000 where !channel.send(value) { return }
            channel.finish()
        }
        var expected = 0
        while let value = try channel.receive() {
            #expect(value == expected)
            expected += 1
        }
        #expect(expected == 10_000)
        try producer.join()
    }
}
