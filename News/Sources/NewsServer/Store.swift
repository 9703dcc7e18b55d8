import Foundation

/// The server's state: the snapshot, pre-encoded answers, the random source, request
/// counts, and the live mode's moves.
// Safe: `lock` guards every stored property but the immutable `configuration`.
final class Store: @unchecked Sendable {
  let configuration: DemoServer.Configuration
  private let lock = NSLock()
  private var snapshot: Snapshot
  private var encodedItems: [Int: [UInt8]] = [:]
  private var encodedFeeds: [String: [UInt8]] = [:]
  private var encodedUpdates: [UInt8] = Array(#"{"items":[],"profiles":[]}"#.utf8)
  private var random: SeededGenerator
  private var requestCounts: [String: Int] = [:]
  private var inFlight = 0
  private var maxInFlight = 0

  init(snapshot: Snapshot, configuration: DemoServer.Configuration) {
    var snapshot = snapshot
    if configuration.rebaseTime {
      snapshot = snapshot.shifted(by: Int(Date().timeIntervalSince1970) - snapshot.newestTime)
    }
    self.snapshot = snapshot
    self.configuration = configuration
    self.random = SeededGenerator(seed: configuration.seed ?? UInt64.random(in: 0...UInt64.max))
    for (id, item) in snapshot.items { encodedItems[id] = item.encoded() }
    for name in Snapshot.feedNames { encodeFeed(name) }
  }

  private func encodeFeed(_ name: String) {
    encodedFeeds[name] = JSONValue.array(snapshot.ids(ofFeed: name).map { .int($0) }).encoded()
  }

  /// What the server answers to one request.
  enum Answer: Equatable, Sendable {
    case json(status: Int, body: [UInt8])
    case fault(DemoServer.Fault)
  }

  /// The answer to `GET path`, and how long to wait before giving it, in milliseconds.
  func answer(path: String) -> (Answer, delay: Int) {
    lock.withLock {
      requestCounts[path, default: 0] += 1
      inFlight += 1
      maxInFlight = max(maxInFlight, inFlight)
      let delay =
        configuration.latency.count > 1
        ? Int.random(in: configuration.latency, using: &random) : configuration.latency.lowerBound
      if let fault = injectedFault(path: path) { return (.fault(fault), delay) }
      return (route(path), delay)
    }
  }

  private func injectedFault(path: String) -> DemoServer.Fault? {
    if let id = Self.itemID(path), let fault = configuration.failingItems[id] { return fault }
    guard configuration.failRate > 0, !configuration.faults.isEmpty else { return nil }
    guard Double.random(in: 0..<1, using: &random) < configuration.failRate else { return nil }
    return configuration.faults.randomElement(using: &random)
  }

  static func itemID(_ path: String) -> Int? {
    guard path.hasPrefix("/v0/item/"), path.hasSuffix(".json") else { return nil }
    return Int(path.dropFirst("/v0/item/".count).dropLast(".json".count))
  }

  private static let null = Array("null".utf8)

  private func route(_ path: String) -> Answer {
    if let id = Self.itemID(path) {
      return .json(status: 200, body: encodedItems[id] ?? Self.null)
    }
    if path.hasPrefix("/v0/user/"), path.hasSuffix(".json") {
      let name = String(path.dropFirst("/v0/user/".count).dropLast(".json".count))
      let decoded = name.removingPercentEncoding ?? name
      return .json(status: 200, body: snapshot.users[decoded].map { $0.encoded() } ?? Self.null)
    }
    switch path {
    case "/v0/maxitem.json":
      return .json(status: 200, body: Array(String(snapshot.items.keys.max() ?? 0).utf8))
    case "/v0/updates.json":
      return .json(status: 200, body: encodedUpdates)
    default:
      break
    }
    for name in Snapshot.feedNames where path == "/v0/\(name)stories.json" {
      return .json(status: 200, body: encodedFeeds[name] ?? Array("[]".utf8))
    }
    return .json(
      status: 404,
      body: Array(#"{"error":"no such endpoint; try /v0/topstories.json or /v0/item/8863.json"}"#.utf8))
  }

  /// Marks the end of a request that `answer(path:)` began (answered, dropped, or its
  /// connection closed).
  func finished() {
    lock.withLock { inFlight -= 1 }
  }

  /// The most requests the server has had in flight at once, since the last reset.
  func takeMaxInFlight() -> Int {
    lock.withLock {
      defer { maxInFlight = inFlight }
      return maxInFlight
    }
  }

  /// How many requests for `path` the server has had.
  func requests(path: String) -> Int {
    lock.withLock { requestCounts[path, default: 0] }
  }

  /// All requests the server has had.
  func totalRequests() -> Int {
    lock.withLock { requestCounts.values.reduce(0, +) }
  }

  // MARK: Live mode

  /// One move of a live snapshot: a few stories near the top gain points and comments and
  /// climb; a few others fall; `updates` lists the changed items and their authors.
  func move() {
    lock.withLock {
      var top = snapshot.ids(ofFeed: "top")
      guard top.count > 2 else { return }
      var changed: [Int] = []
      let window = min(top.count, 60)
      for _ in 0..<Int.random(in: 2...5, using: &random) {
        let rank = Int.random(in: 0..<window, using: &random)
        let id = top[rank]
        guard var item = snapshot.items[id] else { continue }
        let gain = Int.random(in: 1...25, using: &random)
        item["score"] = .int((item["score"]?.int ?? 0) + gain)
        if item["type"]?.string != "job" {
          item["descendants"] = .int((item["descendants"]?.int ?? 0) + Int.random(in: 0...6, using: &random))
        }
        snapshot.items[id] = item
        encodedItems[id] = item.encoded()
        changed.append(id)
        // Climb by a place for every ten points gained, at least one.
        let climb = min(rank, max(1, gain / 10))
        top.remove(at: rank)
        top.insert(id, at: rank - climb)
      }
      // Older stories fall a place or two.
      for _ in 0..<Int.random(in: 1...2, using: &random) {
        let rank = Int.random(in: 0..<(window - 2), using: &random)
        let id = top.remove(at: rank)
        top.insert(id, at: rank + Int.random(in: 1...2, using: &random))
        if !changed.contains(id) { changed.append(id) }
      }
      snapshot.feeds["top"] = top
      encodeFeed("top")
      var authors: [JSONValue] = []
      for id in changed {
        if let by = snapshot.items[id]?["by"], !authors.contains(by) { authors.append(by) }
      }
      encodedUpdates = JSONValue.object([
        "items": .array(changed.map { .int($0) }), "profiles": .array(authors),
      ]).encoded()
    }
  }
}
