/// Calls `body` with a pointer to `value`, which `body` only reads during the call: how the
/// operators hand a value to a handler that takes it through a pointer.
///
/// Specialised, this is `_withUnprotectedUnsafePointer(to:_:)`, which costs nothing once
/// inlined. But the optimiser does not inline a generic function of the standard library
/// into code it did not specialise (a debug build of an app, a generic helper in another
/// module): there `_withUnprotectedUnsafePointer` stayed a call, with the closure formed on
/// the stack and called through a thunk, about 50 instructions a value. There the value is
/// copied into a local instead (its value witnesses' copy and destroy, about half that) and
/// the local's address passed.
@inlinable
@inline(__always)
internal func withReadPointer<Value, Result>(to value: Value, _ body: (UnsafePointer<Value>) -> Result) -> Result {
  if _isConcrete(Value.self) {
    // Unprotected: `body` reads exactly one `Value` through the pointer.
    return _withUnprotectedUnsafePointer(to: value, body)
  }
  var copy = value
  return body(&copy)
}
