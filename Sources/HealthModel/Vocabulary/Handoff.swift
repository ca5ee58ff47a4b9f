/// Lets a value that is not Sendable move to another thread when the code guarantees only one thread uses
/// it at a time (here: handed to the decoding thread and read back only after it has finished).
package final class Handoff<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
