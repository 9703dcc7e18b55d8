import Foundation

/// A JSON value as Firebase's streams change it: a tree whose inner nodes are keyed by name
/// (an array's elements by their index), so that a `put` or `patch` at a path applies
/// to arrays and objects alike.
///
/// A node whose keys are exactly `"0"`…`"n-1"` is encoded back as an array, as Firebase's
/// REST API does; a key set to `null` is removed.
indirect enum FirebaseTree: Codable, Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case node([String: FirebaseTree])

  init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      self = .null
    } else if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let i = try? c.decode(Int.self) {
      self = .int(i)
    } else if let d = try? c.decode(Double.self) {
      self = .double(d)
    } else if let s = try? c.decode(String.self) {
      self = .string(s)
    } else if let a = try? c.decode([FirebaseTree].self) {
      self = .node(Dictionary(uniqueKeysWithValues: a.enumerated().map { (String($0.offset), $0.element) }))
    } else {
      self = .node(try c.decode([String: FirebaseTree].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    switch self {
    case .null: try c.encodeNil()
    case .bool(let b): try c.encode(b)
    case .int(let i): try c.encode(i)
    case .double(let d): try c.encode(d)
    case .string(let s): try c.encode(s)
    case .node(let members):
      if let elements = Self.elements(members) { try c.encode(elements) } else { try c.encode(members) }
    }
  }

  /// The members in index order when the keys are exactly `"0"`…`"n-1"`.
  private static func elements(_ members: [String: FirebaseTree]) -> [FirebaseTree]? {
    guard !members.isEmpty else { return nil }
    var elements: [FirebaseTree] = []
    for index in 0..<members.count {
      guard let element = members[String(index)] else { return nil }
      elements.append(element)
    }
    return elements
  }

  /// The values of a node in the numeric order of their keys (a list as Firebase keeps it).
  var listed: [FirebaseTree] {
    guard case .node(let members) = self else { return [] }
    return members.compactMap { key, value in Int(key).map { ($0, value) } }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  /// Sets the value at `path` (`/` is the whole tree, `/score` one key, `/kids/3` deeper),
  /// making the nodes on the way; `null` removes the key.
  mutating func put(_ value: FirebaseTree, at path: String) {
    put(value, at: path.split(separator: "/").map(String.init)[...])
  }

  private mutating func put(_ value: FirebaseTree, at keys: ArraySlice<String>) {
    guard let key = keys.first else {
      self = value
      return
    }
    var members: [String: FirebaseTree] = [:]
    if case .node(let existing) = self { members = existing }
    var child = members[key] ?? .null
    child.put(value, at: keys.dropFirst())
    members[key] = child == .null ? nil : child
    self = members.isEmpty ? .null : .node(members)
  }

  /// Sets each key of `changes` below `path`, as a `patch` event does.
  mutating func patch(_ changes: FirebaseTree, at path: String) {
    guard case .node(let members) = changes else { return }
    let base = path.hasSuffix("/") ? path : path + "/"
    for (key, value) in members { put(value, at: base + key) }
  }

  /// Applies one Firebase event (`put` or `patch`, with data `{"path":…,"data":…}`);
  /// `false` when the event is of another kind or does not parse.
  mutating func apply(type: String, data: String) -> Bool {
    struct Payload: Decodable {
      let path: String
      let data: FirebaseTree?
    }
    guard type == "put" || type == "patch",
      let payload = try? JSONDecoder().decode(Payload.self, from: Data(data.utf8))
    else { return false }
    if type == "put" {
      put(payload.data ?? .null, at: payload.path)
    } else {
      patch(payload.data ?? .null, at: payload.path)
    }
    return true
  }
}
