import Confluence
import Foundation

/// The state of one notification subscription: outstanding demand, whether a thread is
/// delivering, and the notifications accepted meanwhile (each already counted against the
/// demand, so the queue never holds more than was asked for). Changed under the
/// subscription's lock.
struct NotificationDeliveryState {
  var demand = Subscribers.Demand.none
  var isDelivering = false
  var queue: [Notification] = []
  var isCancelled = false

  /// A notification was posted. Returns it if the caller must deliver it now (and then
  /// owns delivery), `nil` if it was dropped (no demand) or queued for the delivering
  /// thread.
  mutating func posted(_ notification: Notification) -> Notification? {
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
  /// notification to deliver, or `nil` (and gives delivery up).
  mutating func delivered(returning more: Subscribers.Demand) -> Notification? {
    demand += more
    if !isCancelled, !queue.isEmpty {
      return queue.removeFirst()
    }
    isDelivering = false
    queue = []
    return nil
  }
}
