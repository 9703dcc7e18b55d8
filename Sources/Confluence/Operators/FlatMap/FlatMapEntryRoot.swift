/// The root of ``FlatMapInnerEntry`` and so of ``FlatMapSubscription``: generic over
/// nothing, so that the handlers the entries call (and the subscription's `specialized`) can
/// take the entry as this class, and their types name no generic parameter.
///
/// That lets ``FlatMapSubscription``'s initialiser, where it runs unspecialised (a debug
/// build's app code calling the library), hand over handlers of the rare events that
/// capture nothing and call the methods below, which the subscription overrides: formed in
/// unspecialised code, a handler that names the subscription's types captures their
/// metadata, an allocation per handler (five of the seven are spared; the two value
/// handlers, called per value, keep the cheaper call). The same methods, the value ones
/// too, serve an unoptimised build, where `unsafeDowncast` checks its cast and so would look
/// the class's metadata up in the runtime's cache on every call: a method of the class
/// finds it in the object.
@usableFromInline
internal class FlatMapEntryRoot {
  @inlinable
  internal init() {}

  /// Upstream's subscription (overridden by the subscription).
  @usableFromInline
  internal func receiveSubscriptionOverridden(_ subscription: Subscription) {
    confluencePreconditionFailure("FlatMapSubscription overrides receiveSubscriptionOverridden(_:)")
  }

  #if CONFLUENCE_UNOPTIMISED
    /// An upstream value, which the pointer points to, in an unoptimised build (overridden by
    /// the subscription; elsewhere the value handlers cast, see its initialiser).
    @usableFromInline
    internal func receiveValueOverridden(_ input: UnsafeRawPointer) -> Subscribers.Demand {
      confluencePreconditionFailure("FlatMapSubscription overrides receiveValueOverridden(_:)")
    }

    /// An inner publisher's value, which the pointer points to, in an unoptimised build
    /// (overridden by the subscription).
    @usableFromInline
    internal func innerValueOverridden(_ value: UnsafeRawPointer, id: FlatMapInnerID) -> Subscribers.Demand {
      confluencePreconditionFailure("FlatMapSubscription overrides innerValueOverridden(_:id:)")
    }
  #endif

  /// Upstream's completion, which the pointer points to (overridden by the subscription).
  @usableFromInline
  internal func receiveCompletionOverridden(_ completion: UnsafeRawPointer) {
    confluencePreconditionFailure("FlatMapSubscription overrides receiveCompletionOverridden(_:)")
  }

  /// An inner publisher's subscription (overridden by the subscription).
  @usableFromInline
  internal func innerSubscriptionOverridden(_ subscription: Subscription, id: FlatMapInnerID) {
    confluencePreconditionFailure("FlatMapSubscription overrides innerSubscriptionOverridden(_:id:)")
  }

  /// An inner publisher's completion, which the pointer points to (overridden by the
  /// subscription).
  @usableFromInline
  internal func innerCompletionOverridden(_ completion: UnsafeRawPointer, id: FlatMapInnerID) {
    confluencePreconditionFailure("FlatMapSubscription overrides innerCompletionOverridden(_:id:)")
  }

  /// Downstream's request (`demand` non-zero) or cancel (`.none`) (overridden by the
  /// subscription).
  @usableFromInline
  internal func requestOrCancelOverridden(_ demand: Subscribers.Demand) {
    confluencePreconditionFailure("FlatMapSubscription overrides requestOrCancelOverridden(_:)")
  }
}
