import Confluence

/// The state of a subscription to a source that pushes whenever it likes (notifications,
/// property changes) and may push from several threads at once: outstanding demand,
/// whether a thread is delivering, and the elements accepted meanwhile (each already
/// counted against the demand, so the queue never holds more than was asked for; without
/// demand an element is dropped). Changed under the subscription's lock.
struct DemandBoundedDeliveryState<Element> {
  var demand = Subscribers.Demand.none
  var isDelivering = false
  var queue: [Element] = []
  var isCancelled = false

  /// An element was pushed. Returns it if the caller must deliver it now (and then owns
  /// delivery), `nil` if it was dropped (no demand) or queued for the delivering thread.
  mutating func posted(_ notification: Element) -> Element? {
    guard !isCancelled, demand > 0 else { return nil }
    demand -= 1
    if isDelivering {
      queue.append(notification)
      return nil
    }
    isDelivering = true
    return notification
  }

  /// The delivering thread's downstream call returned `more`. Returns the next queued
  /// element to deliver, or `nil` (and gives delivery up).
  mutating func delivered(returning more: Subscribers.Demand) -> Element? {
    demand += more
    if !isCancelled, !queue.isEmpty {
      return queue.removeFirst()
    }
    isDelivering = false
    queue = []
    return nil
  }
}
