@_spi(SwiftUI) import Observation
import Confluence

/// The subscription of an ``ObservationPublisher``: one observation of the key path,
/// installed from subscription to cancel (its will-set and did-set handlers fire for every
/// change), pushing values against demand.
final class ObservationSubscription<Root: Observable & AnyObject, Value>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, ObservationChangeHandling,
  @unchecked Sendable
{
  // @unchecked Sendable: `state`, `object` and `downstream` are guarded by `lock`; the
  // observation's handlers run on whichever thread changes the property.
  typealias Downstream = AnySubscriber<Value, Never>

  private let lock = Lock()
  private var state = DemandBoundedDeliveryState<Value>()
  private var object: Root?
  private var downstream: Downstream?
  private let keyPath: KeyPath<Root, Value>
  private let prior: Bool

  init(object: Root, keyPath: KeyPath<Root, Value>, prior: Bool, downstream: Downstream) {
    self.object = object
    self.keyPath = keyPath
    self.prior = prior
    self.downstream = downstream
  }

  /// Installs the observation; returns the current value.
  func startObserving() -> Value {
    guard let object = lock.withLock({ self.object }) else {
      confluencePreconditionFailure("observing before subscribing")
    }
    let keyPath = self.keyPath
    // The handlers reach this subscription through a non-generic existential, held weakly.
    weak let handler: (any ObservationChangeHandling)? = self
    return withObservationTracking(
      { object[keyPath: keyPath] },
      willSet: { tracking in handler?.changing(tracking, isPrior: true) },
      didSet: { tracking in handler?.changing(tracking, isPrior: false) })
  }

  /// A handler fired: publishes the value (before or after the change), or, once
  /// cancelled, removes the observation.
  func changing(_ tracking: ObservationTracking, isPrior: Bool) {
    guard let object = lock.withLock({ self.object }) else {
      tracking.cancel()
      return
    }
    if isPrior && !prior { return }
    push(object[keyPath: keyPath])
  }

  /// Delivers `value` against demand (dropped without), one thread at a time.
  func push(_ value: Value) {
    guard var next = lock.withLock({ state.posted(value) }) else { return }
    while true {
      guard let target = lock.withLock({ downstream }) else {
        _ = lock.withLock { state.delivered(returning: .none) }
        return
      }
      let more = target.receive(next)
      guard let queued = lock.withLock({ state.delivered(returning: more) }) else { return }
      next = queued
    }
  }

  func request(_ demand: Subscribers.Demand) {
    confluencePrecondition(
      demand != .none, "API violation: request(_:) was called with demand .none; request at least .max(1)")
    lock.withLock { state.demand += demand }
  }

  func cancel() {
    // The observation itself goes at the next change (its handlers see `object` gone);
    // they hold this subscription weakly, so nothing else is kept.
    let released = lock.withLock { () -> (Root?, Downstream?) in
      state.isCancelled = true
      defer {
        object = nil
        downstream = nil
      }
      return (object, downstream)
    }
    withExtendedLifetime(released) {}
  }

  var description: String { "ObservationPublisher" }

  var customMirror: Mirror {
    let (object, demand) = lock.withLock { (self.object, state.demand) }
    return Mirror(self, children: ["object": object as Any, "keyPath": keyPath, "demand": demand])
  }

  var playgroundDescription: Any { description }
}

/// What an observation's handlers call (non-generic, so the `@Sendable` handlers capture no
/// generic metatype).
protocol ObservationChangeHandling: AnyObject, Sendable {
  func changing(_ tracking: ObservationTracking, isPrior: Bool)
}
