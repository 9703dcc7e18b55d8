import Foundation

/// The server's state: the snapshot, pre-encoded answers, the random source, request
/// counts, the live mode's moves, and the event streams open on them.
// Safe: `lock` guards every stored property but the immutable `configuration`; the streams'
// `write` and `drop` closures are called only after the lock is released.
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
  private var log = StreamLog()
  private var streams: [Int: OpenStream] = [:]
  private var nextStreamID = 0
  private var moves = 0

  /// One open event stream: the path it follows and how to reach its connection.
  struct OpenStream {
    let path: String
    /// Writes text to the stream (on the connection's event loop).
    let write: @Sendable (String) -> Void
    /// Writes `text` (the start of an event) and closes the connection: a dropped stream.
    let drop: @Sendable (String) -> Void
  }

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

  // MARK: Event streams

  /// The value a stream of `path` follows: a feed's ids, or an item (`null` when there is
  /// none); `nil` for a path that does not stream.
  private func streamedValue(path: String) -> JSONValue? {
    if let id = Self.itemID(path) { return snapshot.items[id] ?? .null }
    for name in Snapshot.feedNames where path == "/v0/\(name)stories.json" {
      return .array(snapshot.ids(ofFeed: name).map { .int($0) })
    }
    return nil
  }

  /// Opens an event stream of `path` (counted as a request of it): what it starts with —
  /// the events after `lastEventID` when the log still has them, else the whole value as a
  /// `put` — and its id for ``closeStream(_:)``; `nil` when `path` does not stream.
  func openStream(
    path: String, lastEventID: String?, write: @escaping @Sendable (String) -> Void,
    drop: @escaping @Sendable (String) -> Void
  ) -> (id: Int, opening: String)? {
    lock.withLock {
      guard let current = streamedValue(path: path) else { return nil }
      requestCounts[path, default: 0] += 1
      nextStreamID += 1
      streams[nextStreamID] = OpenStream(path: path, write: write, drop: drop)
      let opening = log.opening(path: path, current: current, lastEventID: lastEventID).text
      // A reconnecting client waits about a tick: it missed nothing the log does not keep.
      let retry = "retry: \(Int(min(1, configuration.tick) * 1000))\n\n"
      return (nextStreamID, retry + opening)
    }
  }

  /// Forgets a stream whose connection closed.
  func closeStream(_ id: Int) {
    _ = lock.withLock { streams.removeValue(forKey: id) }
  }

  /// How many event streams are open.
  func openStreamCount() -> Int { lock.withLock { streams.count } }

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
  /// climb; a few others fall; now and then a new story arrives (at the top of `new`, and
  /// in `top` where its first votes put it); `updates` lists the changed items and their
  /// authors. The open streams of every changed path get its events; with faults on, a
  /// stream is dropped now and then, in the middle of an event.
  func move() {
    let (writes, drops) = lock.withLock { () -> ([(OpenStream, String)], [OpenStream]) in
      let before = snapshot
      guard let changed = moveSnapshot() else { return ([], []) }
      var changes: [(path: String, old: JSONValue, new: JSONValue)] = []
      for name in Snapshot.feedNames where before.ids(ofFeed: name) != snapshot.ids(ofFeed: name) {
        changes.append(
          (
            "/v0/\(name)stories.json", .array(before.ids(ofFeed: name).map { .int($0) }),
            .array(snapshot.ids(ofFeed: name).map { .int($0) })
          ))
      }
      for id in changed.sorted() {
        changes.append(("/v0/item/\(id).json", before.items[id] ?? .null, snapshot.items[id] ?? .null))
      }
      let written = log.record(changes)
      moves += 1
      var writes: [(OpenStream, String)] = []
      let ordered = streams.sorted { $0.key < $1.key }
      for (_, stream) in ordered {
        if let text = written[stream.path] {
          writes.append((stream, text))
        } else if moves % 5 == 0 {
          writes.append((stream, StreamLog.keepAlive))
        }
      }
      // Faults: at the drop rate, one stream (drawn from the seed) drops.
      var drops: [OpenStream] = []
      let dropRate = configuration.streamDropRate ?? configuration.failRate
      if dropRate > 0, !ordered.isEmpty, Double.random(in: 0..<1, using: &random) < dropRate {
        let (id, stream) = ordered[Int.random(in: 0..<ordered.count, using: &random)]
        streams[id] = nil
        drops.append(stream)
      }
      return (writes, drops)
    }
    for (stream, text) in writes { stream.write(text) }
    for stream in drops { stream.drop(#"event: put\#ndata: {"path":"/","da"#) }
  }

  /// Moves the snapshot (under the lock); the ids of the items that changed, `nil` if none could.
  private func moveSnapshot() -> Set<Int>? {
    var top = snapshot.ids(ofFeed: "top")
    guard top.count > 2 else { return nil }
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
    // About one move in three, a new story arrives.
    if Int.random(in: 0..<3, using: &random) == 0 {
      let story = arrival(time: snapshot.newestTime + (moves + 1) * max(1, Int(configuration.tick)))
      let id = story["id"]!.int!
      snapshot.items[id] = story
      encodedItems[id] = story.encoded()
      snapshot.feeds["new", default: []].insert(id, at: 0)
      encodeFeed("new")
      top.insert(id, at: Int.random(in: 2...min(top.count, 12), using: &random))
      changed.append(id)
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
    return Set(changed)
  }

  /// A new story, drawn from the seed: the next id after the snapshot's highest, one of
  /// ``arrivalTitles``, by one of the snapshot's authors.
  private func arrival(time: Int) -> JSONValue {
    let id = (snapshot.items.keys.max() ?? 0) + 1
    let (title, url) = Self.arrivalTitles[Int.random(in: 0..<Self.arrivalTitles.count, using: &random)]
    let authors = snapshot.feeds["top", default: []].compactMap { snapshot.items[$0]?["by"] }
    var story: [String: JSONValue] = [
      "id": .int(id), "type": .string("story"), "title": .string(title),
      "by": authors.isEmpty ? .string("newsdemo") : authors[Int.random(in: 0..<authors.count, using: &random)],
      "time": .int(time), "score": .int(Int.random(in: 2...9, using: &random)), "descendants": .int(0),
    ]
    if let url { story["url"] = .string(url) }
    return .object(story)
  }

  /// The stories the live mode makes arrive (made up for the demo).
  static let arrivalTitles: [(String, String?)] = [
    ("Show HN: A terminal reader that updates as the front page moves", "https://example.com/live-reader"),
    ("Back-pressure explained with a garden hose", "https://example.org/hose"),
    ("Ask HN: What do you use server-sent events for?", nil),
    ("The design of a reactive streams library, from scratch", "https://example.net/streams"),
    ("Why my event stream reconnects every 30 seconds", "https://example.com/keepalive"),
    ("A field guide to HTTP chunked encoding", "https://example.org/chunked"),
    ("Show HN: I rewrote our polling loop as a stream and the server sighed", "https://example.com/sigh"),
    ("SQLite as an application file format, revisited", "https://example.net/sqlite"),
    ("Deterministic simulation testing for distributed systems", "https://example.org/dst"),
    ("Ask HN: How do you test terminal user interfaces?", nil),
  ]
}
