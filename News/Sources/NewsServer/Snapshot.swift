import Foundation

/// The data the demo server serves: feeds (ids in rank order), items and users, as the
/// Hacker News API sends them.
///
/// A snapshot is read from folders in the layout of `snapshot-2019-11-12/`: each
/// `<feed>stories.json` is the list of the full items of one feed, in rank order (a bare
/// number stands for an id the server has no item for, which it answers with `null`); an
/// optional `items.json` lists more items (comments, polls, …) that are in no feed, and an
/// optional `users.json` lists users. When no `askstories.json` or `jobstories.json` is
/// given, the ask feed is derived from the titles that start "Ask HN" and the job feed from
/// the items of type `job`.
public struct Snapshot: Sendable {
  /// Feed name (`top`, `new`, `best`, `ask`, `show`, `job`) → ids in rank order.
  var feeds: [String: [Int]]
  /// Item id → item object.
  var items: [Int: JSONValue]
  /// User name → user object.
  var users: [String: JSONValue]

  /// The feeds the API has, in the order the server derives them.
  static let feedNames = ["top", "new", "best", "ask", "show", "job"]

  /// The front page of 2019-11-12, the API documentation's example items and four comments
  /// of the Dropbox thread (item 8863), bundled with the package.
  public static func bundled() throws -> Snapshot {
    guard
      let snapshot = Bundle.module.url(forResource: "snapshot-2019-11-12", withExtension: nil),
      let examples = Bundle.module.url(forResource: "api-examples", withExtension: nil),
      let thread = Bundle.module.url(forResource: "thread-8863", withExtension: nil)
    else {
      throw SnapshotError("the bundled snapshot is missing from the package's resources")
    }
    return try Snapshot(folders: [snapshot, examples, thread])
  }

  /// Reads a snapshot from `folders` (later folders add to earlier ones).
  public init(folders: [URL]) throws {
    var feeds: [String: [Int]] = [:]
    var items: [Int: JSONValue] = [:]
    var users: [String: JSONValue] = [:]
    let decoder = JSONDecoder()
    for folder in folders {
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      for name in names where name.hasSuffix(".json") {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        let list: [JSONValue]
        do {
          list = try decoder.decode([JSONValue].self, from: data)
        } catch {
          throw SnapshotError("\(name) is not a JSON list: \(error)")
        }
        if name == "users.json" {
          for user in list { if let id = user["id"]?.string { users[id] = user } }
          continue
        }
        var ids: [Int] = []
        for item in list {
          // A bare number in a feed file is an id the server has no item for (it answers null).
          if let id = item.int {
            ids.append(id)
            continue
          }
          guard let id = item["id"]?.int else { continue }
          items[id] = item
          ids.append(id)
        }
        if name.hasSuffix("stories.json") {
          feeds[String(name.dropLast("stories.json".count))] = ids
        }
      }
    }
    self.init(feeds: feeds, items: items, users: users)
  }

  init(feeds: [String: [Int]], items: [Int: JSONValue], users: [String: JSONValue]) {
    self.items = items
    self.users = users
    self.feeds = feeds
    // Derive the feeds that were not captured from the ones that were.
    var seen = Set<Int>()
    let everything = Self.feedNames.flatMap { feeds[$0] ?? [] }.filter { seen.insert($0).inserted }
    if self.feeds["ask"] == nil {
      self.feeds["ask"] = everything.filter { items[$0]?["title"]?.string?.hasPrefix("Ask HN") == true }
    }
    if self.feeds["job"] == nil {
      self.feeds["job"] = everything.filter { items[$0]?["type"]?.string == "job" }
    }
    for name in Self.feedNames where self.feeds[name] == nil { self.feeds[name] = [] }
  }

  /// The number of items.
  public var itemCount: Int { items.count }

  /// The ids of a feed (`top`, `new`, `best`, `ask`, `show`, `job`), in rank order.
  public func ids(ofFeed name: String) -> [Int] { feeds[name] ?? [] }

  /// The newest `time` of the items in the feeds, in Unix seconds.
  public var newestTime: Int {
    feeds.values.joined().compactMap { items[$0]?["time"]?.int }.max() ?? 0
  }

  /// The same snapshot with the `time` of every item in a feed moved by `seconds` (items
  /// in no feed, such as the API's example items, keep their times).
  public func shifted(by seconds: Int) -> Snapshot {
    var copy = self
    for id in Set(feeds.values.joined()) {
      if let time = items[id]?["time"]?.int { copy.items[id]?["time"] = .int(time + seconds) }
    }
    return copy
  }
}

/// A snapshot folder that cannot be read.
public struct SnapshotError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
