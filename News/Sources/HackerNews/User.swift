/// A Hacker News user. Only `id` (the user name) is guaranteed.
///
/// ```swift
/// api.user(id: "pg").sink(receiveCompletion: { _ in }, receiveValue: { print($0?.karma ?? 0) })
/// ```
public struct User: Codable, Sendable, Hashable, Identifiable {
  /// The user name.
  public var id: String
  /// Account creation time, in Unix seconds.
  public var created: Int?
  /// The user's karma.
  public var karma: Int?
  /// The user's self-description, HTML.
  public var about: String?
  /// The ids of the user's stories, polls and comments, newest first.
  public var submitted: [Int]?

  /// Creates a user.
  public init(id: String, created: Int? = nil, karma: Int? = nil, about: String? = nil, submitted: [Int]? = nil) {
    self.id = id
    self.created = created
    self.karma = karma
    self.about = about
    self.submitted = submitted
  }
}

/// The API's `updates`: the items and profiles that changed recently.
public struct Updates: Codable, Sendable, Hashable {
  /// Ids of items that changed.
  public var items: [Int]
  /// Names of users whose profile changed.
  public var profiles: [String]

  /// Creates an update list.
  public init(items: [Int] = [], profiles: [String] = []) {
    self.items = items
    self.profiles = profiles
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    items = try c.decodeIfPresent([Int].self, forKey: .items) ?? []
    profiles = try c.decodeIfPresent([String].self, forKey: .profiles) ?? []
  }
}

/// A list of stories the API publishes.
public enum Feed: String, CaseIterable, Codable, Sendable {
  /// The front page: up to 500 stories and jobs.
  case top
  /// The newest stories: up to 500.
  case new
  /// The best stories: up to 500.
  case best
  /// Ask HN: up to 200.
  case ask
  /// Show HN: up to 200.
  case show
  /// Jobs: up to 200.
  case job

  /// The path of the feed below the API's base URL, without `.json`.
  public var path: String { "\(rawValue)stories" }
}
