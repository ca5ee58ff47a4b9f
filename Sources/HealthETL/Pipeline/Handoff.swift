/// Lets a value that is not Sendable move to another thread when the code guarantees only one thread uses
/// it at a time (here: handed to the decoding thread and read back only after it has finished).
final class Handoff<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
