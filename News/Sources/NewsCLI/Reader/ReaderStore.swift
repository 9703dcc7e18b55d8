import Foundation
import HackerNews

/// What the reader keeps between runs: read marks and the stories and comments it loaded.
///
/// The reader calls these from its scheduler, never with a lock held; an implementation
/// that writes to disk should do each call in one transaction.
protocol ReaderStore: AnyObject, Sendable {
  /// The ids of the stories opened before.
  func readMarks() -> Set<Int>
  /// Records that the story `id` was opened.
  func markRead(_ id: Int)
  /// The feed as last loaded: its ids in rank order and the items that arrived.
  func cachedFeed(_ feed: Feed) -> (ids: [Int], items: [Item])?
  /// Keeps the feed as loaded now.
  func saveFeed(_ feed: Feed, ids: [Int], items: [Item])
  /// The comments of the story `id` as last loaded.
  func cachedComments(of id: Int) -> [Item]?
  /// Keeps the comments of the story `id` as loaded now.
  func saveComments(_ comments: [Item], of id: Int)
  /// The item `id` as last loaded (in a feed, as a comment, or opened by id).
  func cachedItem(id: Int) -> Item?
}

/// A ``ReaderStore`` in memory, for one run (and for tests).
// Safe: `lock` guards every stored property.
final class MemoryReaderStore: ReaderStore, @unchecked Sendable {
  private let lock = NSLock()
  private var marks: Set<Int> = []
  private var feeds: [Feed: (ids: [Int], items: [Item])] = [:]
  private var comments: [Int: [Item]] = [:]
  private var items: [Int: Item] = [:]

  init(readMarks: Set<Int> = []) { marks = readMarks }

  func readMarks() -> Set<Int> { lock.withLock { marks } }
  func markRead(_ id: Int) { lock.withLock { _ = marks.insert(id) } }
  func cachedFeed(_ feed: Feed) -> (ids: [Int], items: [Item])? { lock.withLock { feeds[feed] } }
  func saveFeed(_ feed: Feed, ids: [Int], items: [Item]) {
    lock.withLock {
      feeds[feed] = (ids, items)
      for item in items { self.items[item.id] = item }
    }
  }
  func cachedComments(of id: Int) -> [Item]? { lock.withLock { comments[id] } }
  func saveComments(_ comments: [Item], of id: Int) {
    lock.withLock {
      self.comments[id] = comments
      for item in comments { items[item.id] = item }
    }
  }
  func cachedItem(id: Int) -> Item? { lock.withLock { items[id] } }
}
