import Foundation

/// A thread-safe list of what scheduled actions did, for tests whose actions run on other
/// threads.
//
// @unchecked Sendable: `items` is read and written only under `lock`.
final class Recorder<Item>: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Item] = []

  func append(_ item: Item) {
    lock.lock()
    items.append(item)
    lock.unlock()
  }

  /// Appends and returns the new count.
  @discardableResult
  func appendCounting(_ item: Item) -> Int {
    lock.lock()
    defer { lock.unlock() }
    items.append(item)
    return items.count
  }

  var all: [Item] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }

  var count: Int { all.count }
}

/// Seconds elapsed on the monotonic clock since `start`.
func secondsSince(_ start: DispatchTime) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000_000
}
