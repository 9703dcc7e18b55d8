import Foundation
import HackerNews

/// A ``StoryStore`` in memory: for tests, and for a run whose database cannot be opened
/// (the run goes on, and forgets when it ends).
///
/// ```swift
/// let store = MemoryStore()
/// try store.markRead(id: 8863)
/// try store.isRead(id: 8863)   // true
/// ```
// Safe: `lock` guards every stored property.
public final class MemoryStore: StoryStore, @unchecked Sendable {
  private let lock = NSLock()
  private var kept: [Int: Item] = [:]
  private var listings: [Feed: Listing] = [:]
  private var last: Feed?
  private var read: Set<Int> = []
  private var keywords: [String] = []

  /// An empty store.
  public init() {}

  public func save(items: [Item]) throws {
    lock.withLock { for item in items { kept[item.id] = item } }
  }

  public func item(id: Int) throws -> Item? { lock.withLock { kept[id] } }

  public func items(ids: [Int]) throws -> [Int: Item] {
    lock.withLock {
      var result: [Int: Item] = [:]
      for id in ids { if let item = kept[id] { result[id] = item } }
      return result
    }
  }

  public func saveListing(_ ids: [Int], of feed: Feed) throws {
    lock.withLock {
      listings[feed] = Listing(feed: feed, ids: ids, date: Date())
      last = feed
    }
  }

  public func listing(of feed: Feed) throws -> Listing? { lock.withLock { listings[feed] } }

  public func lastListing() throws -> Listing? { lock.withLock { last.flatMap { listings[$0] } } }

  public func stories(feed: Feed) throws -> [Item] {
    lock.withLock { (listings[feed]?.ids ?? []).compactMap { kept[$0] } }
  }

  public func markRead(id: Int) throws { _ = lock.withLock { read.insert(id) } }

  public func isRead(id: Int) throws -> Bool { lock.withLock { read.contains(id) } }

  public func readIDs() throws -> Set<Int> { lock.withLock { read } }

  public func filters() throws -> [String] { lock.withLock { keywords } }

  @discardableResult public func addFilter(_ keyword: String) throws -> Bool {
    let keyword = KeywordFilter.normalized(keyword)
    guard !keyword.isEmpty else { return false }
    return lock.withLock {
      guard !keywords.contains(where: { $0.caseInsensitiveCompare(keyword) == .orderedSame }) else { return false }
      keywords.append(keyword)
      return true
    }
  }

  @discardableResult public func removeFilter(_ keyword: String) throws -> Bool {
    let keyword = KeywordFilter.normalized(keyword)
    return lock.withLock {
      guard let index = keywords.firstIndex(where: { $0.caseInsensitiveCompare(keyword) == .orderedSame }) else {
        return false
      }
      keywords.remove(at: index)
      return true
    }
  }
}
