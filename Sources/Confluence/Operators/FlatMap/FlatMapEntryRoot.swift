/// The root of ``FlatMapInnerEntry`` and so of ``FlatMapSubscription``: generic over
/// nothing, holding the four handlers every event of the subscription goes through.
///
/// The handlers are formed in ``FlatMapSubscription``'s initialiser, where every type is
/// known, so they run specialised code. Their types name no generic parameter (the entry
/// goes in as this class, values and completions borrowed, through a pointer) and they
/// capture nothing, so storing them costs no allocation and calling them needs no
/// reabstraction thunk. They live here, in a class generic over nothing, so that the
/// entry classes between this one and the subscription store nothing: a generic class's
/// `deinit` runs unspecialised, one function per class of the hierarchy that stores
/// something, each letting its handlers go. Four handlers, not one per event: the rare
/// events (completions, requests, cancels) share ``event``, values keep a handler each
/// (called per value, they take no detour through a `switch`), and subscriptions keep
/// theirs, since an `any Subscription` read back through a pointer would be copied (a
/// retain and a release per inner publisher).
///
/// Where the initialiser runs unspecialised (a debug build's app code calling the
/// library), it hands over handlers for the subscription and the rare events that capture
/// nothing and call the methods below, which the subscription overrides: formed in
/// unspecialised code, a handler that names the subscription's types captures their
/// metadata, an allocation per handler (the two value handlers, called per value, keep the
/// cheaper call). The same methods, the value ones too, serve an unoptimised build, where
/// `unsafeDowncast` checks its cast and so would look the class's metadata up in the
/// runtime's cache on every call: a method of the class finds it in the object.
@usableFromInline
internal class FlatMapEntryRoot {
  /// Hands the upstream value the pointer points to (borrowed) over.
  @usableFromInline
  internal typealias ValueHandler = (FlatMapEntryRoot, UnsafeRawPointer) -> Subscribers.Demand

  /// Hands the inner value the pointer points to (borrowed) over.
  @usableFromInline
  internal typealias InnerValueHandler = (FlatMapEntryRoot, UnsafeRawPointer, FlatMapInnerID) -> Subscribers.Demand

  /// Hands a subscription over: upstream's (``FlatMapInnerID/upstream``) or an inner
  /// publisher's.
  @usableFromInline
  internal typealias SubscriptionHandler = (FlatMapEntryRoot, Subscription, FlatMapInnerID) -> Void

  /// Hands one of the rare events over (see ``FlatMapEvent`` for what the pointer points to
  /// and what the identifier carries).
  @usableFromInline
  internal typealias EventHandler = (FlatMapEntryRoot, FlatMapEvent, UnsafeRawPointer?, FlatMapInnerID) -> Void

  @usableFromInline internal let receiveValue: ValueHandler
  @usableFromInline internal let innerValue: InnerValueHandler
  @usableFromInline internal let receiveSubscription: SubscriptionHandler
  @usableFromInline internal let event: EventHandler

  @inlinable
  internal init(
    receiveValue: @escaping ValueHandler, innerValue: @escaping InnerValueHandler,
    receiveSubscription: @escaping SubscriptionHandler, event: @escaping EventHandler
  ) {
    self.receiveValue = receiveValue
    self.innerValue = innerValue
    self.receiveSubscription = receiveSubscription
    self.event = event
  }

  /// Upstream's or an inner publisher's subscription (overridden by the subscription).
  @usableFromInline
  internal func receiveSubscriptionOverridden(_ subscription: Subscription, id: FlatMapInnerID) {
    confluencePreconditionFailure("FlatMapSubscription overrides receiveSubscriptionOverridden(_:id:)")
  }

  #if CONFLUENCE_UNOPTIMISED
    /// Upstream's value (overridden by the subscription).
    @usableFromInline
    internal func receiveValueOverridden(_ input: UnsafeRawPointer) -> Subscribers.Demand {
      confluencePreconditionFailure("FlatMapSubscription overrides receiveValueOverridden(_:)")
    }

    /// An inner publisher's value (overridden by the subscription).
    @usableFromInline
    internal func innerValueOverridden(_ value: UnsafeRawPointer, id: FlatMapInnerID) -> Subscribers.Demand {
      confluencePreconditionFailure("FlatMapSubscription overrides innerValueOverridden(_:id:)")
    }
  #endif

  /// One of the rare events (overridden by the subscription).
  @usableFromInline
  internal func eventOverridden(_ event: FlatMapEvent, _ pointer: UnsafeRawPointer?, id: FlatMapInnerID) {
    confluencePreconditionFailure("FlatMapSubscription overrides eventOverridden(_:_:id:)")
  }
}
