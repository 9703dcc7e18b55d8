import Confluence
import Foundation

/// The subscription a ``Foundation/NotificationCenter/Publisher`` hands each subscriber: an
/// observer on the center that forwards notifications against demand.
final class NotificationSubscription: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `state`, `downstream`, `center` and `observer` are guarded by
  // `lock`; the center calls the observer block on the posting thread.
  typealias Downstream = AnySubscriber<Notification, Never>

  private let lock = Lock()
  private var state = DemandBoundedDeliveryState<Notification>()
  private var downstream: Downstream?
  private var center: NotificationCenter?
  private var observer: NSObjectProtocol?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  deinit {
    if let observer, let center { center.removeObserver(observer) }
  }

  /// Adds the observer (before the subscriber receives this subscription).
  func observe(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
    // The block holds the subscription weakly: the subscriber owns it, and releasing it
    // without cancelling still removes the observer (deinit).
    let token = center.addObserver(forName: name, object: object, queue: nil) { [weak self] notification in
      self?.posted(notification)
    }
    lock.withLock {
      self.center = center
      observer = token
    }
  }

  private func posted(_ notification: Notification) {
    guard var next = lock.withLock({ state.posted(notification) }) else { return }
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
    let (center, observer, released) = lock.withLock { () -> (NotificationCenter?, NSObjectProtocol?, Downstream?) in
      state.isCancelled = true
      defer {
        self.center = nil
        self.observer = nil
        downstream = nil
      }
      return (self.center, self.observer, downstream)
    }
    if let center, let observer { center.removeObserver(observer) }
    withExtendedLifetime(released) {}
  }

  var description: String { "NotificationCenter Observer" }

  var customMirror: Mirror {
    let (center, demand) = lock.withLock { (self.center, state.demand) }
    return Mirror(self, children: ["center": center as Any, "demand": demand])
  }

  var playgroundDescription: Any { description }
}
