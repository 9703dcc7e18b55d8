/// Hands a value that is not `Sendable` (a subject, a subscription) to another thread in the
/// cross-thread stress tests, which order every access to it themselves.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
}
