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
    if _isConcrete(P.self) {
      return type == Just<P.Output>.self || type == Publishers.SetFailureType<Just<P.Output>, P.Failure>.self
    }
    return matchesUnspecialised(type)
  }

  /// ``matches(_:)`` where the compiler did not specialise it (a debug build, or a generic
  /// helper in another module). There `Just<P.Output>` and the `SetFailureType` around it are
  /// looked up in the runtime's cache of generic types, about 350 instructions each, for every
  /// subscription of every `flatMap`, `switchToLatest` and side of a fan-in (RxSwift's
  /// `combineLatest` benchmark as a debug build makes 24 of these look-ups per pipeline, 30
  /// for the sides that are not a `Just`). Instead this reads which generic type `type` is
  /// an instance of from its metadata (its nominal type descriptor), and compares that with
  /// `Just`'s: two loads and a comparison. The output type needs no check: a `Just<X>` whose
  /// `Output` is `P.Output` has `X == P.Output`.
  @inlinable
  @inline(never)
  internal static func matchesUnspecialised(_ type: Any.Type) -> Bool {
    guard let descriptor = TypeMetadata.structDescriptor(of: type) else { return false }
    let just = TypeMetadata.structDescriptor(of: Just<Int>.self)
    if descriptor == just { return true }
    guard descriptor == TypeMetadata.structDescriptor(of: Publishers.SetFailureType<Just<Int>, Never>.self) else {
      return false
    }
    return TypeMetadata.structDescriptor(of: TypeMetadata.firstGenericArgument(of: type)) == just
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
    withReadPointer(to: publisher) { pointer in
      UnsafeRawPointer(pointer).assumingMemoryBound(to: P.Output.self).pointee
    }
  }
}
