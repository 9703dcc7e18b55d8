import Foundation

/// One Hacker News item — a story, comment, job, poll or poll option — as the API sends it.
///
/// Only `id` is guaranteed: every other field may be missing. Deleted items keep little more
/// than their `id`, `type` and `time`; dead items are flagged `dead` (their `text` is often
/// `"[dead]"`). `title` and `text` are HTML (entities, `<p>`, `<i>`, `<a href>`,
/// `<pre><code>`): render them with care, and strip control characters before they reach a
/// terminal.
///
/// ```swift
/// let item = try JSONDecoder().decode(Item.self, from: data)
/// if item.kind == .comment, !item.deleted { print(item.text ?? "") }
/// ```
public struct Item: Codable, Sendable, Hashable, Identifiable {
  /// What an item is. Kinds the client does not know decode too, with their raw name.
  public struct Kind: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let story = Kind(rawValue: "story")
    public static let comment = Kind(rawValue: "comment")
    public static let job = Kind(rawValue: "job")
    public static let poll = Kind(rawValue: "poll")
    public static let pollOption = Kind(rawValue: "pollopt")
  }

  /// The item's unique id.
  public var id: Int
  /// The kind of item (the API's `type`).
  public var kind: Kind?
  /// The author's user name.
  public var by: String?
  /// Creation time, in Unix seconds.
  public var time: Int?
  /// The title (stories, polls, jobs), HTML.
  public var title: String?
  /// The text (comments, Ask HN stories, polls, jobs), HTML.
  public var text: String?
  /// The URL of a story or job.
  public var url: String?
  /// The score of a story, or the votes of a poll option.
  public var score: Int?
  /// The total comment count of a story or poll.
  public var descendants: Int?
  /// The ids of the item's comments, in ranked display order.
  public var kids: [Int]
  /// The parent of a comment: another comment or the story.
  public var parent: Int?
  /// The poll a poll option belongs to.
  public var poll: Int?
  /// The options of a poll, in display order.
  public var parts: [Int]
  /// `true` if the item is deleted.
  public var deleted: Bool
  /// `true` if the item is dead (flagged or killed).
  public var dead: Bool

  /// Creates an item; every field but `id` is optional, as in the API.
  public init(
    id: Int, kind: Kind? = nil, by: String? = nil, time: Int? = nil, title: String? = nil,
    text: String? = nil, url: String? = nil, score: Int? = nil, descendants: Int? = nil,
    kids: [Int] = [], parent: Int? = nil, poll: Int? = nil, parts: [Int] = [],
    deleted: Bool = false, dead: Bool = false
  ) {
    self.id = id
    self.kind = kind
    self.by = by
    self.time = time
    self.title = title
    self.text = text
    self.url = url
    self.score = score
    self.descendants = descendants
    self.kids = kids
    self.parent = parent
    self.poll = poll
    self.parts = parts
    self.deleted = deleted
    self.dead = dead
  }

  enum CodingKeys: String, CodingKey {
    case id, by, time, title, text, url, score, descendants, kids, parent, poll, parts, deleted, dead
    case kind = "type"
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(Int.self, forKey: .id)
    kind = try c.decodeIfPresent(Kind.self, forKey: .kind)
    by = try c.decodeIfPresent(String.self, forKey: .by)
    time = try c.decodeIfPresent(Int.self, forKey: .time)
    title = try c.decodeIfPresent(String.self, forKey: .title)
    text = try c.decodeIfPresent(String.self, forKey: .text)
    url = try c.decodeIfPresent(String.self, forKey: .url)
    score = try c.decodeIfPresent(Int.self, forKey: .score)
    descendants = try c.decodeIfPresent(Int.self, forKey: .descendants)
    kids = try c.decodeIfPresent([Int].self, forKey: .kids) ?? []
    parent = try c.decodeIfPresent(Int.self, forKey: .parent)
    poll = try c.decodeIfPresent(Int.self, forKey: .poll)
    parts = try c.decodeIfPresent([Int].self, forKey: .parts) ?? []
    deleted = try c.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
    dead = try c.decodeIfPresent(Bool.self, forKey: .dead) ?? false
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encodeIfPresent(kind, forKey: .kind)
    try c.encodeIfPresent(by, forKey: .by)
    try c.encodeIfPresent(time, forKey: .time)
    try c.encodeIfPresent(title, forKey: .title)
    try c.encodeIfPresent(text, forKey: .text)
    try c.encodeIfPresent(url, forKey: .url)
    try c.encodeIfPresent(score, forKey: .score)
    try c.encodeIfPresent(descendants, forKey: .descendants)
    if !kids.isEmpty { try c.encode(kids, forKey: .kids) }
    try c.encodeIfPresent(parent, forKey: .parent)
    try c.encodeIfPresent(poll, forKey: .poll)
    if !parts.isEmpty { try c.encode(parts, forKey: .parts) }
    if deleted { try c.encode(true, forKey: .deleted) }
    if dead { try c.encode(true, forKey: .dead) }
  }

  /// The creation time as a `Date`, if the item has one.
  public var date: Date? { time.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
}
