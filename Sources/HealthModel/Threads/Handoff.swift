/// Lets a value that is not Sendable move to another thread when the code guarantees only one thread uses
/// it at a time. `@unchecked Sendable` rests on each use saying how: the decoding thread's `Production`, read
/// back only after that thread is joined; the inflating thread's source, never touched by its caller again.
package final class Handoff<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
