import HackerNews

/// What the reader keeps between runs: the stories and comments it loaded, the last listing
/// of each feed, read marks and keyword filters.
///
/// ``SQLiteStore`` keeps them in a SQLite file (the one the commands use); ``MemoryStore``
/// keeps them in memory (for tests, and for a run whose database cannot be opened). Every
/// call is one transaction: what a call wrote is kept even if the process is stopped right
/// after it returns.
///
/// ```swift
/// let store = try SQLiteStore.open(at: DataDirectory.resolve(override: nil))
/// try store.save(items: [story])
/// try store.saveListing([story.id], of: .top)
/// try store.markRead(id: story.id)
/// let offline = try store.stories(feed: .top)   // [story]
/// ```
///
/// Calls may come from any thread.
public protocol StoryStore: AnyObject, Sendable {
  /// Keeps `items` (stories, comments, anything), replacing what was kept under their ids.
  func save(items: [Item]) throws
  /// The item kept under `id`, if any.
  func item(id: Int) throws -> Item?
  /// The items kept under `ids`, by id (ids with nothing kept are absent).
  func items(ids: [Int]) throws -> [Int: Item]

  /// Keeps `ids` (in rank order) as the last listing of `feed`, and as the last listing of all.
  func saveListing(_ ids: [Int], of feed: Feed) throws
  /// The last listing of `feed`, if it was ever listed.
  func listing(of feed: Feed) throws -> Listing?
  /// The listing saved last, whatever its feed: what `news item --rank N` counts in.
  func lastListing() throws -> Listing?
  /// The kept items of the last listing of `feed`, in rank order (ids with nothing kept
  /// are skipped): what the reader shows at once, and all it shows offline.
  func stories(feed: Feed) throws -> [Item]

  /// Marks item `id` as read.
  func markRead(id: Int) throws
  /// Whether item `id` is marked as read.
  func isRead(id: Int) throws -> Bool
  /// Every id marked as read.
  func readIDs() throws -> Set<Int>

  /// The keyword filters, in the order they were added: stories whose title contains one
  /// (ignoring case) are hidden from lists.
  func filters() throws -> [String]
  /// Adds `keyword` to the filters; `false` if it was already there (ignoring case).
  @discardableResult func addFilter(_ keyword: String) throws -> Bool
  /// Removes `keyword` from the filters (ignoring case); `false` if it was not there.
  @discardableResult func removeFilter(_ keyword: String) throws -> Bool
}

extension StoryStore {
  /// The kept comments of `root`, breadth-first, as `(depth, comment)` in the order the
  /// thread is shown: each comment followed by its kept replies (depth 0 is a top-level comment).
  public func thread(of root: Item) throws -> [(depth: Int, item: Item)] {
    var result: [(depth: Int, item: Item)] = []
    func walk(_ ids: [Int], depth: Int) throws {
      let kept = try items(ids: ids)
      for id in ids {
        guard let item = kept[id] else { continue }
        result.append((depth, item))
        if !item.kids.isEmpty { try walk(item.kids, depth: depth + 1) }
      }
    }
    try walk(root.kids, depth: 0)
    return result
  }
}
