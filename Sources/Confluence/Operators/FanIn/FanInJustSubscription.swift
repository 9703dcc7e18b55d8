/// A `Just` upstream of a fan-in operator, subscribed to without its subscription object.
///
/// Subscribed to, a `Just` hands its subscriber a subscription that answers the first
/// request with its value and `.finished`, ignores every later request, and is released
/// when cancelled; nothing outside the fan-in can see that subscription. Here it is this
/// value, which holds the `Just`'s value as its bytes (so that it is one type whatever the
/// value's, and fits the existential's inline buffer: no allocation, and copies that run
/// code made for it): ``request(_:)`` runs the fan-in's ``FanInJustEntry/event``
/// handler, which delivers the value the first time only (``FanInState`` remembers) and
/// sets off the transitions a live `Just` would, in the same order.
///
/// ``FanInSubscription`` uses it only when the side's publisher type is `Just` (or a `Just`
/// given a failure type), its value is plain data of at most eight bytes (``fits(_:)``) and
/// no introspection watches subscribes; any other `Just` is subscribed to.
///
/// `cancel()` does nothing: the fan-in cancels its upstreams only in the transitions that
/// end it, after which the handler delivers nothing.
///
/// It holds its fan-in without a reference count (`unowned(unsafe)`), which makes it plain
/// data: a copy or a destroy of it (the side's ``FanInSideStatus`` holds it as it is) costs no atomic
/// instruction and no call to a value witness. That is safe because only its own fan-in
/// ever holds it (in its state, and in the copies its methods make to forward demand or
/// cancel outside the lock), so every call on it runs inside a call on that fan-in, which
/// the caller keeps alive; a reference from the fan-in's state to the fan-in itself would
/// also have been a cycle, broken only when the side finished.
@usableFromInline
internal struct FanInJustSubscription: Subscription, CustomStringConvertible {
  @usableFromInline internal unowned(unsafe) let parent: FanInJustEntry
  /// The value's bytes (``value(as:)`` reads it back).
  @usableFromInline internal let bits: UInt64
  @usableFromInline internal let side: FanInSide

  /// Whether a value of type `Value` can be kept as ``bits``: plain data (no references to
  /// retain) of at most eight bytes.
  @inlinable
  @inline(__always)
  internal static func fits<Value>(_ type: Value.Type) -> Bool {
    _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<UInt64>.size
      && MemoryLayout<Value>.alignment <= MemoryLayout<UInt64>.alignment
  }

  /// `value`, which ``fits(_:)``, from the `Just` on `side` of `parent`.
  @inlinable
  internal init<Value>(parent: FanInJustEntry, side: FanInSide, value: Value) {
    self.parent = parent
    self.side = side
    var bits: UInt64 = 0
    Self.store(value, at: &bits)
    self.bits = bits
  }

  /// Writes `value` (plain data, which ``fits(_:)``) at `bits` (the initialiser's local, as
  /// ``load(_:as:)`` reads it).
  @inlinable
  @inline(__always)
  internal static func store<Value>(_ value: Value, at bits: UnsafeMutableRawPointer) {
    // Raw: the memory is bound to `UInt64`, not to `Value`.
    bits.storeBytes(of: value, as: Value.self)
  }

  /// The value, as its type (the one it was made with).
  @inlinable
  @inline(__always)
  internal static func value<Value>(of bits: UInt64, as type: Value.Type) -> Value {
    var bits = bits
    return load(&bits, as: Value.self)
  }

  /// The `Value` at `bits` (``value(of:as:)``'s local, passed as `&bits`: an argument's
  /// conversion, where `withUnsafeBytes(of:_:)`, a generic function of the standard library,
  /// stays a call with a closure in code that is not specialised).
  @inlinable
  @inline(__always)
  internal static func load<Value>(_ bits: UnsafeRawPointer, as _: Value.Type) -> Value {
    bits.load(as: Value.self)
  }

  @inlinable
  internal var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    parent.event(parent, .just, side, nil, bits)
  }

  @inlinable
  internal func cancel() {}

  @usableFromInline internal var description: String { "Just" }
}

/// What a ``FanInJustSubscription`` sees of its fan-in: the root of ``FanInEntry``, generic
/// over nothing, so that the subscription is not generic either (its copies and its
/// `request`, reached through `any Subscription`, then run code made for its one type,
/// not code that takes type metadata).
///
/// It holds the three handlers every event of the fan-in goes through. They are formed in
/// ``FanInSubscription``'s initialiser, where the downstream type is known, so they run
/// specialised code. Their types name no generic parameter (the entry goes in as this
/// class, values and completions borrowed, through a pointer) and they capture nothing, so
/// storing them costs no allocation and calling them needs no reabstraction thunk. They
/// live here, in a class generic over nothing, so that ``FanInEntry`` stores nothing: a
/// generic class's `deinit` runs unspecialised, one function per class of the hierarchy
/// that stores something, each letting its handlers go. The rare events (completions, a
/// `Just`'s value, requests, cancels) share ``event``; each side's values keep a handler of
/// their own (one handler switching on the side cost `combineLatest-2` 8% more
/// instructions per value: the compiler no longer inlined the four paths into it), and
/// subscriptions keep theirs, since an `any Subscription` read back through a pointer
/// would be copied.
///
/// That also lets ``FanInSubscription``'s initialiser, where it runs unspecialised (a debug
/// build's app code calling the library), hand over handlers for the subscriptions and the
/// rare events that capture nothing and call the methods below, which the subscription
/// overrides: formed in unspecialised code, a handler that names the subscription's types
/// captures their metadata, an allocation per handler (the value handlers, called per
/// value, keep the cheaper call).
@usableFromInline
internal class FanInJustEntry {
  /// Hands `side`'s subscription over.
  @usableFromInline
  internal typealias SubscriptionHandler = (FanInJustEntry, FanInSide, Subscription) -> Void

  /// Hands the value (of one side) the pointer points to (borrowed) over.
  @usableFromInline
  internal typealias ValueHandler = (FanInJustEntry, UnsafeRawPointer) -> Subscribers.Demand

  /// Hands one of the rare events over (see ``FanInEvent`` for what the pointer points to
  /// and what the word carries).
  @usableFromInline
  internal typealias EventHandler = (FanInJustEntry, FanInEvent, FanInSide, UnsafeRawPointer?, UInt64) -> Void

  @usableFromInline internal let receiveSubscription: SubscriptionHandler
  @usableFromInline internal let receiveA: ValueHandler
  @usableFromInline internal let receiveB: ValueHandler
  @usableFromInline internal let receiveC: ValueHandler
  @usableFromInline internal let receiveD: ValueHandler
  @usableFromInline internal let event: EventHandler

  @inlinable
  internal init(
    receiveSubscription: @escaping SubscriptionHandler, receiveA: @escaping ValueHandler,
    receiveB: @escaping ValueHandler, receiveC: @escaping ValueHandler, receiveD: @escaping ValueHandler,
    event: @escaping EventHandler
  ) {
    self.receiveSubscription = receiveSubscription
    self.receiveA = receiveA
    self.receiveB = receiveB
    self.receiveC = receiveC
    self.receiveD = receiveD
    self.event = event
  }

  /// Hands the value from `side` the pointer points to (borrowed) over.
  @inlinable
  internal final func receive(_ value: UnsafeRawPointer, from side: FanInSide) -> Subscribers.Demand {
    switch side {
    case .a: return receiveA(self, value)
    case .b: return receiveB(self, value)
    case .c: return receiveC(self, value)
    case .d: return receiveD(self, value)
    }
  }

  // What the handlers call where the subscription's initialiser ran unspecialised, and in
  // an unoptimised build, where `unsafeDowncast` checks the cast and so looked the class's
  // metadata up in the runtime's cache on every call: `FanInSubscription` overrides them,
  // and a method of its class finds the class's generic metadata in the object.

  #if CONFLUENCE_UNOPTIMISED
    /// A value from `side`, which the pointer points to, in an unoptimised build (overridden
    /// by `FanInSubscription`; elsewhere the value handlers cast, see its initialiser).
    @usableFromInline
    internal func receiveOverridden(_ value: UnsafeRawPointer, from side: FanInSide) -> Subscribers.Demand {
      confluencePreconditionFailure("FanInSubscription overrides receiveOverridden(_:from:)")
    }
  #endif

  /// `side`'s subscription (overridden by `FanInSubscription`).
  @usableFromInline
  internal func receiveSubscriptionOverridden(_ side: FanInSide, _ subscription: Subscription) {
    confluencePreconditionFailure("FanInSubscription overrides receiveSubscriptionOverridden(_:_:)")
  }

  /// One of the rare events (overridden by `FanInSubscription`).
  @usableFromInline
  internal func eventOverridden(_ event: FanInEvent, _ side: FanInSide, _ pointer: UnsafeRawPointer?, _ word: UInt64) {
    confluencePreconditionFailure("FanInSubscription overrides eventOverridden(_:_:_:_:)")
  }
}
