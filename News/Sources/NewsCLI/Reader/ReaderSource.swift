import Combine
import Dispatch
import HackerNews

/// Where the reader loads stories and comments from: the Hacker News ``API`` in the app, a
/// scripted fake on a virtual clock in tests.
protocol ReaderSource: Sendable {
  /// The feed's ids, then its first `limit` items as they arrive.
  func feed(_ feed: Feed, limit: Int) -> AnyPublisher<FeedEvent, API.Error>
  /// The comments below `story`, each as it arrives.
  func comments(of story: Item) -> AnyPublisher<Ranked<Item?>, Never>
  /// One item; `nil` if the server has none with this id.
  func item(id: Int) -> AnyPublisher<Item?, API.Error>
  /// The feed as its event streams change it, or `nil` where the source has none.
  func liveFeed(_ feed: Feed, limit: Int) -> AnyPublisher<LiveFeedEvent, Never>?
}

extension ReaderSource {
  /// No event streams: the reader loads and refreshes the feed.
  func liveFeed(_ feed: Feed, limit: Int) -> AnyPublisher<LiveFeedEvent, Never>? { nil }
}

/// The reader's source on the Hacker News API.
struct APIReaderSource: ReaderSource {
  let api: API
  /// The most requests in flight at once.
  let maxConcurrent: Int
  /// Where the feeds' event streams deliver: serial.
  let streamQueue = DispatchQueue(label: "news.live")

  func feed(_ feed: Feed, limit: Int) -> AnyPublisher<FeedEvent, API.Error> {
    api.feed(feed, limit: limit, maxConcurrent: maxConcurrent)
  }

  func comments(of story: Item) -> AnyPublisher<Ranked<Item?>, Never> {
    api.comments(of: story, maxConcurrent: maxConcurrent)
  }

  func item(id: Int) -> AnyPublisher<Item?, API.Error> {
    api.item(id: id)
  }

  func liveFeed(_ feed: Feed, limit: Int) -> AnyPublisher<LiveFeedEvent, Never>? {
    api.liveFeed(feed, limit: limit, scheduler: streamQueue)
  }
}
