/// An `Optional`, named by a generic parameter of its own rather than as `Wrapped?`.
///
/// Code the compiler did not specialise (a pipeline built by a generic helper in another
/// module) finds the metadata of a generic parameter in the metadata it was handed, but the
/// metadata of `Optional<Output>` only through the runtime's cache of generic types
/// (`swift_getGenericMetadata`, about 300 instructions), and it needs that metadata for every
/// temporary of the type. `compactMap`'s relay and its fused closures hold the optional type
/// as a parameter conforming to this protocol, so that the per-value path forms no optional
/// of a type it has to look up: ``flatMapWrapped(_:)`` writes its result where the caller's
/// result goes. Both take the optional (the result of a call, which nothing else holds) so
/// as not to copy it through its value witnesses.
///
/// ``SlotQueue`` holds its elements in slots of such a type, for the same reason, through
/// the slot members below, and so does `combineLatest`'s logic its latest values.
///
/// Only `Optional` conforms.
@usableFromInline
package protocol OptionalValue {
  associatedtype Wrapped

  /// `flatMap`: `f` applied to the wrapped value, or `nil`.
  consuming func flatMapWrapped<Result>(_ f: (Wrapped) -> Result?) -> Result?

  /// The demand `subscriber` returns for the wrapped value, or `nil` (and no call) if there
  /// is none.
  consuming func deliverWrapped<Target: Subscriber>(to subscriber: borrowing Target) -> Subscribers.Demand?
  where Target.Input == Wrapped

  /// The value as `Wrapped?` (for cold paths; it forms an optional of a looked-up type).
  var optional: Wrapped? { get }

  /// An empty slot: `nil`.
  static var emptySlot: Self { get }

  /// A slot holding `wrapped`.
  init(slotOf wrapped: consuming Wrapped)

  /// The slot's content, the slot left empty (`take()`).
  mutating func takeSlot() -> Self

  /// The wrapped value; the slot must not be empty.
  consuming func unwrappedSlot() -> Wrapped

  /// Puts a copy of `wrapped` in the slot (`self = wrapped`). One call where the compiler
  /// did not specialise the caller, where `self = Self(slotOf: wrapped)` made two: the
  /// initialiser's and the optional's `assignWithTake` witness, each reading both slots'
  /// tags. Borrowed, and copied here, where `Wrapped`'s metadata is the optional's own
  /// argument: a caller that copied it would look it up as its slot type's associated type.
  mutating func fillSlot(with wrapped: borrowing Wrapped)

  /// The wrapped value, the slot left empty; the slot must not be empty. One call where the
  /// compiler did not specialise the caller, where `takeSlot().unwrappedSlot()` made two and
  /// moved the value twice.
  mutating func takeWrapped() -> Wrapped

  /// Whether the slot holds a value (`!= nil`, without forming a `Wrapped?`).
  var isFilledSlot: Bool { get }

  /// A copy of the wrapped value, the slot left as it is; the slot must not be empty.
  func wrappedSlotCopy() -> Wrapped
}

extension Optional: OptionalValue {
  @inlinable
  @inline(__always)
  package consuming func flatMapWrapped<Result>(_ f: (Wrapped) -> Result?) -> Result? {
    switch consume self {
    case .some(let wrapped): return f(wrapped)
    case .none: return nil
    }
  }

  @inlinable
  @inline(__always)
  package consuming func deliverWrapped<Target: Subscriber>(to subscriber: borrowing Target) -> Subscribers.Demand?
  where Target.Input == Wrapped {
    switch consume self {
    case .some(let wrapped): return subscriber.receive(wrapped)
    case .none: return nil
    }
  }

  @inlinable
  package var optional: Wrapped? { self }

  @inlinable
  package static var emptySlot: Self { nil }

  @inlinable
  @inline(__always)
  package init(slotOf wrapped: consuming Wrapped) {
    self = .some(wrapped)
  }

  @inlinable
  @inline(__always)
  package mutating func takeSlot() -> Self {
    // `take()` written out: a generic function of the standard library, it stayed a call in
    // code the compiler did not specialise.
    let slot = consume self
    self = nil
    return slot
  }

  @inlinable
  @inline(__always)
  package consuming func unwrappedSlot() -> Wrapped {
    switch consume self {
    case .some(let wrapped): return wrapped
    case .none: confluencePreconditionFailure("an empty slot was read")
    }
  }

  @inlinable
  @inline(__always)
  package mutating func fillSlot(with wrapped: borrowing Wrapped) {
    self = .some(copy wrapped)
  }

  @inlinable
  @inline(__always)
  package mutating func takeWrapped() -> Wrapped {
    switch consume self {
    case .some(let wrapped):
      self = nil
      return wrapped
    case .none:
      confluencePreconditionFailure("an empty slot was read")
    }
  }

  @inlinable
  @inline(__always)
  package var isFilledSlot: Bool {
    // `!= nil` rather than a `switch`, which an unoptimised build made on a copy of the slot
    // (through the optional's value witnesses); the standard library's `!=` with `nil`
    // borrows it.
    self != nil
  }

  @inlinable
  @inline(__always)
  package func wrappedSlotCopy() -> Wrapped {
    // Unwrapped with `!` (which traps on an empty slot) rather than by a `switch`, which an
    // unoptimised build made on a copy of the slot and then copied the value out of.
    self!
  }
}

extension OptionalValue {
  /// Copies the value the slot at `slot` holds (it must hold one) to `destination`, read where
  /// the slot keeps it: an optional's payload sits at its first byte (Swift's stable layout of
  /// an enum with one payload case). One copy through `Value`'s value witness, where
  /// ``wrappedSlotCopy()`` in code the compiler did not specialise copied through the
  /// optional's witnesses into a temporary, and the caller then moved it (the fan-ins'
  /// outputs, ``TupleWriter``). `Value` is `Wrapped`, named by the caller, which has its
  /// metadata at hand. The caller passes `&slot`: an argument's conversion, where
  /// `withUnsafeMutablePointer(to:_:)`, a generic function of the standard library, stays a
  /// call with a closure in code that is not specialised.
  @inlinable
  @inline(__always)
  internal static func copyWrapped<Value>(_ slot: UnsafePointer<Self>, to destination: UnsafeMutablePointer<Value>)
  where Wrapped == Value {
    // A raw load: the slot's memory is bound to the optional, not to `Value`.
    destination.initialize(to: UnsafeRawPointer(slot).load(as: Value.self))
  }
}
