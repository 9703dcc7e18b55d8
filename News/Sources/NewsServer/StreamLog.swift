import Foundation

/// The event streams' record of what changed: every change of every path as the Firebase
/// REST API streams it (`put` and `patch` events), numbered by the version of the data that
/// made it, kept so that a client that reconnects with `Last-Event-ID` gets exactly the
/// events it missed.
///
/// A pure value, kept by ``Store`` under its lock. The version counts the moves of the live
/// snapshot: version 0 is the snapshot as loaded, and each move that changes anything makes
/// the next version. An event's SSE `id` is the version that made it; a stream's first
/// event, the whole value at the path, carries the version it shows.
struct StreamLog {
  /// One event of one path, as the stream writes it.
  struct Entry {
    let version: Int
    let path: String
    let text: String
  }

  /// The version of the data now.
  private(set) var version = 0
  private var entries: [Entry] = []
  /// Every event of a version above `floor` is in `entries`.
  private var floor = 0
  /// The most events kept; older ones are forgotten (a client that missed them gets the
  /// whole value again).
  let capacity: Int

  init(capacity: Int = 4096) {
    self.capacity = capacity
  }

  /// Starts the next version and records the events that turn `old` into `new` for each
  /// changed path; returns each path's events, as written to its streams.
  mutating func record(_ changes: [(path: String, old: JSONValue, new: JSONValue)]) -> [String: String] {
    version += 1
    var written: [String: String] = [:]
    for change in changes {
      let text = Self.events(from: change.old, to: change.new).map { event in
        Self.text(type: event.type, id: version, data: event.data)
      }.joined()
      guard !text.isEmpty else { continue }
      entries.append(Entry(version: version, path: change.path, text: text))
      written[change.path, default: ""] += text
    }
    if entries.count > capacity {
      let forgotten = entries.count - capacity
      floor = entries[forgotten - 1].version
      entries.removeFirst(forgotten)
    }
    return written
  }

  /// What a stream of `path` starts with: the events after `lastEventID` when the log still
  /// has all of them (possibly none), else the whole value (`current`) as a `put` at `/`.
  func opening(path: String, current: JSONValue, lastEventID: String?) -> (text: String, resumed: Bool) {
    if let lastEventID, let last = Int(lastEventID.trimmingCharacters(in: .whitespaces)), last >= floor,
      last <= version
    {
      let missed = entries.filter { $0.version > last && $0.path == path }.map(\.text).joined()
      return (missed, true)
    }
    return (Self.text(type: "put", id: version, data: Self.payload(path: "/", data: current)), false)
  }

  // MARK: The Firebase event format

  /// The events that turn `old` into `new`, as Firebase streams them: for an object (or an
  /// array, whose keys are its indices) with one changed key, a `put` of that key's value
  /// at `/key`; with several, a `patch` at `/` with the changed keys (a removed key as
  /// `null`); for anything else, a `put` of the whole value at `/`. Nothing when equal.
  static func events(from old: JSONValue, to new: JSONValue) -> [(type: String, data: String)] {
    guard old != new else { return [] }
    guard let before = keyed(old), let after = keyed(new) else {
      return [("put", payload(path: "/", data: new))]
    }
    var changed: [(key: String, value: JSONValue)] = []
    for key in Set(before.keys).union(after.keys).sorted(by: keyOrder) where before[key] != after[key] {
      changed.append((key, after[key] ?? .null))
    }
    if changed.count == 1 {
      return [("put", payload(path: "/" + changed[0].key, data: changed[0].value))]
    }
    let object = JSONValue.object(Dictionary(uniqueKeysWithValues: changed.map { ($0.key, $0.value) }))
    return [("patch", payload(path: "/", data: object))]
  }

  /// An object's members, or an array's elements keyed by their index; `nil` for a scalar.
  private static func keyed(_ value: JSONValue) -> [String: JSONValue]? {
    switch value {
    case .object(let members): return members
    case .array(let elements):
      return Dictionary(uniqueKeysWithValues: elements.enumerated().map { (String($0.offset), $0.element) })
    default: return nil
    }
  }

  /// Indices in numeric order, then names in text order.
  private static func keyOrder(_ a: String, _ b: String) -> Bool {
    switch (Int(a), Int(b)) {
    case (let x?, let y?): return x < y
    case (.some, nil): return true
    case (nil, .some): return false
    case (nil, nil): return a < b
    }
  }

  /// The data of a `put` or `patch`: `{"path":…,"data":…}`.
  static func payload(path: String, data: JSONValue) -> String {
    let encodedPath = String(decoding: JSONValue.string(path).encoded(), as: UTF8.self)
    return #"{"path":"# + encodedPath + #","data":"# + String(decoding: data.encoded(), as: UTF8.self) + "}"
  }

  /// One event of `text/event-stream`: its type, its id when it has one, and its data (one
  /// line: the JSON has no newlines), ended by the blank line that dispatches it.
  static func text(type: String, id: Int?, data: String) -> String {
    "event: \(type)\n" + (id.map { "id: \($0)\n" } ?? "") + "data: \(data)\n\n"
  }

  /// What Firebase sends on a quiet stream to keep the connection open.
  static let keepAlive = text(type: "keep-alive", id: nil, data: "null")
}
