/// What `switchToLatest` subscribes upstream: the operator's subscription seen through a
/// base class that is generic over the inner publisher type only.
///
/// The subscription's type names the downstream subscriber's type; if the upstream saw it,
/// every `switchToLatest` in a pipeline would hand its upstream a subscriber type that
/// contains the next one's, and the optimizer, which refuses to specialise a generic
/// function again for a type that contains the one it was specialised for a step before
/// (its guard against endless specialisation), would leave all but the last two stages of
/// a nested `switchToLatest` pipeline unspecialised: every value would look generic
/// metadata up at run time. Through this class the upstream sees the same small type at
/// every level, and each value enters the subscription's specialised code through one
/// indirect call.
///
/// The three functions are formed in ``SwitchToLatestSubscription``'s initialiser, where the
/// downstream type is known, so they run specialised code. Their types mention no generic
/// parameter (the entry goes in as the non-generic ``SwitchToLatestEntryRoot``, the value and
/// the completion borrowed, through a pointer) and they capture nothing, so storing them
/// costs no allocation and calling them needs no reabstraction thunk.
@usableFromInline
internal class SwitchToLatestEntry<P: Publisher>: SwitchToLatestEntryRoot, Subscriber {
  @usableFromInline internal typealias Input = P
  @usableFromInline internal typealias Failure = P.Failure

  /// Hands the upstream subscription to the subscription (first argument).
  @usableFromInline
  internal typealias SubscriptionHandler = (SwitchToLatestEntryRoot, Subscription) -> Void

  /// Hands the inner publisher the pointer points to (a `P`, borrowed) to the subscription.
  @usableFromInline
  internal typealias ValueHandler = (SwitchToLatestEntryRoot, UnsafeRawPointer) -> Subscribers.Demand

  /// Hands the completion the pointer points to (a `Subscribers.Completion<P.Failure>`,
  /// borrowed) to the subscription.
  @usableFromInline
  internal typealias CompletionHandler = (SwitchToLatestEntryRoot, UnsafeRawPointer) -> Void

  @usableFromInline
  internal let receiveSubscription: SubscriptionHandler

  @usableFromInline
  internal let receiveValue: ValueHandler

  @usableFromInline
  internal let receiveCompletion: CompletionHandler

  @inlinable
  internal init(
    receiveSubscription: @escaping SubscriptionHandler, receiveValue: @escaping ValueHandler,
    receiveCompletion: @escaping CompletionHandler
  ) {
    self.receiveSubscription = receiveSubscription
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
    super.init()
  }

  @inlinable
  internal final func receive(subscription: Subscription) {
    receiveSubscription(self, subscription)
  }

  @inlinable
  internal final func receive(_ input: P) -> Subscribers.Demand {
    // Unprotected: the handler reads exactly one `P` through the pointer.
    withReadPointer(to: input) { receiveValue(self, $0) }
  }

  @inlinable
  internal final func receive(completion: Subscribers.Completion<P.Failure>) {
    withUnsafePointer(to: completion) { receiveCompletion(self, $0) }
  }
}

/// The root of ``SwitchToLatestEntry``, generic over nothing, so that the functions the entry
/// calls (and the subscription's `specialized`) take it as this class and their types name
/// no generic parameter.
///
/// That lets ``SwitchToLatestSubscription``'s initialiser, where it runs unspecialised (a
/// debug build's app code calling the library), hand over functions of the rare events that
/// capture nothing and call the methods below, which the subscription overrides: formed in
/// unspecialised code, a function that names the subscription's types captures their
/// metadata, an allocation per function (three of the four are spared; the value handler,
/// called per value, keeps the cheaper call). The same methods, the value one too, serve an
/// unoptimised build, where `unsafeDowncast` checks its cast and so would look the class's
/// metadata up in the runtime's cache on every call.
@usableFromInline
internal class SwitchToLatestEntryRoot {
  @inlinable
  internal init() {}

  /// Upstream's subscription (overridden by the subscription).
  @usableFromInline
  internal func receiveSubscriptionOverridden(_ subscription: Subscription) {
    confluencePreconditionFailure("SwitchToLatestSubscription overrides receiveSubscriptionOverridden(_:)")
  }

  #if CONFLUENCE_UNOPTIMISED
    /// An upstream value (a `P`, which the pointer points to), in an unoptimised build
    /// (overridden by the subscription; elsewhere the value handler casts).
    @usableFromInline
    internal func receiveValueOverridden(_ input: UnsafeRawPointer) -> Subscribers.Demand {
      confluencePreconditionFailure("SwitchToLatestSubscription overrides receiveValueOverridden(_:)")
    }
  #endif

  /// Upstream's completion, which the pointer points to (overridden by the subscription).
  @usableFromInline
  internal func receiveCompletionOverridden(_ completion: UnsafeRawPointer) {
    confluencePreconditionFailure("SwitchToLatestSubscription overrides receiveCompletionOverridden(_:)")
  }

  /// Downstream's request (`demand` non-zero) or cancel (`.none`) (overridden by the
  /// subscription).
  @usableFromInline
  internal func requestOrCancelOverridden(_ demand: Subscribers.Demand) {
    confluencePreconditionFailure("SwitchToLatestSubscription overrides requestOrCancelOverridden(_:)")
  }
}
