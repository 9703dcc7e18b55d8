/// A publisher whose type says it is a `Just`: what `flatMap`, `switchToLatest`, `zip` and
/// `combineLatest` take without subscribing to it (each runs the transitions a `Just`'s
/// subscription would set off, in the same order). Both checks compare types, so once
/// specialised they fold to constants.
@usableFromInline
internal enum KnownJust {
  /// Whether `type` is `Just`, or `Just` given a failure type (`Just(x).setFailureType(to:)`,
  /// which is also what `flatMap { Just($0) }` makes over an upstream that can fail).
  @inlinable
  @inline(__always)
  internal static func matches<P: Publisher>(_ type: P.Type) -> Bool {
    type == Just<P.Output>.self || type == Publishers.SetFailureType<Just<P.Output>, P.Failure>.self
  }

  /// The value of `publisher`, whose type ``matches(_:)``.
  ///
  /// Read through the publisher's bytes: `Just` stores only its output, and
  /// `SetFailureType` only its upstream, so both are laid out as the output alone. (Casting
  /// to either type, in generic code the compiler did not specialise, looked that type's
  /// metadata up in the runtime's cache for every element.)
  @inlinable
  @inline(__always)
  internal static func output<P: Publisher>(of publisher: P) -> P.Output {
    withUnsafePointer(to: publisher) { pointer in
      UnsafeRawPointer(pointer).assumingMemoryBound(to: P.Output.self).pointee
    }
  }
}
