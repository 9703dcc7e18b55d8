// The News chapter's API client ("Combine in Action", chapter 14, "In Practice: Project News"),
// written as the chapter prints it, with only `import Foundation` and `import Combine`,
// run against a local server standing in for hacker-news.firebaseio.com. What the chapter's
// `print` calls write is compared with the console output the chapter prints.
import Combine
import Foundation

// MARK: The starter playground's types (not printed in the chapter; as its text describes)

/// What the chapter's `print($0)` calls write, for the tests to compare.
nonisolated(unsafe) private var console: [String] = []
private let consoleLock = NSLock()

/// The chapter's code calls `print`; in this file it writes to `console`.
private func print(_ item: Any) {
  chapterPrint(item)
}

/// Appends what `print` would write (one `print` may write several lines).
func chapterPrint(_ item: Any) {
  let text = String(describing: item)
  consoleLock.withLock {
    console.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
  }
}

/// The lines printed so far.
func consoleLines() -> [String] { consoleLock.withLock { console } }

/// Forgets what was printed.
func consoleReset() { consoleLock.withLock { console = [] } }

public struct Story: Codable {
  public let id: Int
  public let title: String
  public let by: String
  public let time: TimeInterval
  public let url: String
}

extension Story: Comparable {
  public static func < (lhs: Story, rhs: Story) -> Bool {
    return lhs.time > rhs.time
  }
}

extension Story: CustomDebugStringConvertible {
  public var debugDescription: String {
    return "\(title)\nby \(by)\n\n\(url)\n-----\n"
  }
}

struct API {
  /// API Errors.
  enum Error: LocalizedError {
    case addressUnreachable(URL)
    case invalidResponse

    var errorDescription: String? {
      switch self {
      case .invalidResponse: return "The server responded with garbage."
      case .addressUnreachable(let url): return "\(url.absoluteString) is unreachable."
      }
    }
  }

  /// API endpoints. (The chapter's base URL is hacker-news.firebaseio.com; here it is the
  /// local server the test starts.)
  enum EndPoint {
    nonisolated(unsafe) static var baseURL = URL(string: "https://hacker-news.firebaseio.com/v0/")!

    case stories
    case story(Int)

    var url: URL {
      switch self {
      case .stories:
        return EndPoint.baseURL.appendingPathComponent("newstories.json")
      case .story(let id):
        return EndPoint.baseURL.appendingPathComponent("item/\(id).json")
      }
    }
  }

  /// Maximum number of stories to fetch (reduce for lower API strain during development).
  var maxStories = 10

  /// A shared JSON decoder to use in calls.
  private let decoder = JSONDecoder()

  // MARK: The chapter's code, as printed

  private let apiQueue = DispatchQueue(
    label: "API",
    qos: .default,
    attributes: .concurrent)

  func story(id: Int) -> AnyPublisher<Story, Error> {
    URLSession.shared
      .dataTaskPublisher(for: EndPoint.story(id).url)
      .receive(on: apiQueue)
      .map(\.data)
      .decode(type: Story.self, decoder: decoder)
      .catch { _ in Empty<Story, Error>() }
      .eraseToAnyPublisher()
  }

  func mergedStories(ids storyIDs: [Int]) -> AnyPublisher<Story, Error> {
    let storyIDs = Array(storyIDs.prefix(maxStories))

    precondition(!storyIDs.isEmpty)

    let initialPublisher = story(id: storyIDs[0])
    let remainder = Array(storyIDs.dropFirst())

    return remainder.reduce(initialPublisher) { combined, id in
      return
        combined
        .merge(with: story(id: id))
        .eraseToAnyPublisher()
    }
  }

  func stories() -> AnyPublisher<[Story], Error> {
    URLSession.shared
      .dataTaskPublisher(for: EndPoint.stories.url)
      .map(\.data)
      .decode(type: [Int].self, decoder: decoder)
      .mapError { error -> API.Error in
        switch error {
        case is URLError:
          return Error.addressUnreachable(EndPoint.stories.url)
        default:
          return Error.invalidResponse
        }
      }
      .filter { !$0.isEmpty }
      .flatMap { storyIDs in
        return self.mergedStories(ids: storyIDs)
      }
      .scan([]) { stories, story -> [Story] in
        return stories + [story]
      }
      .map { $0.sorted() }
      .eraseToAnyPublisher()
  }
}
