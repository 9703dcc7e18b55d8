import Foundation

/// A Hacker News story: the type the "News" chapter decodes into, with what a reader shows.
///
/// The chapter's fields — `id`, `title`, `by`, `time`, `url` — are always present on a
/// `Story`: when the API leaves one out (an Ask HN story has no `url`, a dead story may have
/// no `title`), it decodes as an empty string or zero. A `null` answer or a JSON value that
/// is not an object does not decode. Stories sort newest first, as in the chapter.
///
/// ```swift
/// api.story(id: 1000)
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
///   .store(in: &subscriptions)
/// // How Important is the .com TLD?
/// // by python_kiss
/// // http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/
/// // -----
/// // finished
/// ```
public struct Story: Codable, Sendable, Hashable, Identifiable {
  /// The story's id.
  public let id: Int
  /// The title, HTML; empty if the API sent none.
  public let title: String
  /// The author; empty if the API sent none (a deleted story).
  public let by: String
  /// Creation time in Unix seconds; zero if the API sent none.
  public let time: TimeInterval
  /// The link; empty for text posts (Ask HN).
  public let url: String
  /// The score; zero if the API sent none.
  public let score: Int
  /// The total number of comments; zero if the API sent none.
  public let descendants: Int

  /// Creates a story.
  public init(
    id: Int, title: String, by: String, time: TimeInterval, url: String, score: Int = 0,
    descendants: Int = 0
  ) {
    self.id = id
    self.title = title
    self.by = by
    self.time = time
    self.url = url
    self.score = score
    self.descendants = descendants
  }

  /// The story part of an item.
  public init(_ item: Item) {
    self.init(
      id: item.id, title: item.title ?? "", by: item.by ?? "", time: TimeInterval(item.time ?? 0),
      url: item.url ?? "", score: item.score ?? 0, descendants: item.descendants ?? 0)
  }

  public init(from decoder: any Decoder) throws {
    self.init(try Item(from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try Item(
      id: id, kind: .story, by: by.isEmpty ? nil : by, time: Int(time), title: title.isEmpty ? nil : title,
      url: url.isEmpty ? nil : url, score: score, descendants: descendants
    ).encode(to: encoder)
  }
}

extension Story: Comparable {
  /// Newer stories come first.
  public static func < (lhs: Story, rhs: Story) -> Bool {
    lhs.time > rhs.time
  }
}

extension Story: CustomDebugStringConvertible {
  /// The title, the author and the link, each on its own line, as the chapter prints them.
  public var debugDescription: String {
    "\n\(title)\nby \(by)\n\(url)\n-----"
  }
}
