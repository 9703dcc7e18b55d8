import Combine
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The Hacker News API client of the "News" chapter, with everything a reader needs.
///
/// The chapter's three methods keep their names and behaviour: ``story(id:)`` publishes one
/// ``Story`` or nothing, ``mergedStories(ids:)`` merges the stories of several ids, and
/// ``stories()`` publishes the growing, sorted list of the newest stories. A reader also
/// needs errors it can report, so the methods it uses — ``item(id:)``, ``items(ids:maxConcurrent:)``,
/// ``feed(_:limit:maxConcurrent:)``, ``comments(of:maxConcurrent:)``, ``user(id:)``,
/// ``maxItem()`` and ``updates()`` — fail with an ``API/Error`` instead of finishing quietly,
/// retry 5xx answers, time-outs and dropped connections with backoff (``RetryPolicy``), and
/// take any base URL (the live API, or the offline demo server).
///
/// ```swift
/// let api = API()
/// var subscriptions = [AnyCancellable]()
/// api.mergedStories(ids: [1000, 1001, 1002])
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
///   .store(in: &subscriptions)
/// ```
///
/// Thread safety: an `API` is a value and may be used from any thread; its publishers
/// deliver on the session's and the API's queues, not on the main thread.
public struct API: Sendable {
  /// The errors of the API's publishers.
  public enum Error: LocalizedError, Hashable, Sendable {
    /// The server cannot be reached at all (host not found, connection refused).
    case addressUnreachable(URL)
    /// The answer is not what the API sends for this request (it does not decode).
    case invalidResponse
    /// The server answered with an HTTP status other than 2xx (after the retries, for a 5xx).
    case serverError(status: Int, url: URL)
    /// No answer within the time limit, on every attempt.
    case timedOut(URL)
    /// The server closed the connection without a complete answer, on every attempt.
    case connectionLost(URL)

    public var errorDescription: String? {
      switch self {
      case .addressUnreachable(let url):
        let host = url.host.map { h in url.port.map { "\(h):\($0)" } ?? h } ?? url.absoluteString
        return "cannot reach \(host)"
      case .invalidResponse:
        return "the server's answer is not valid JSON for this request"
      case .serverError(let status, _):
        return "the server answered HTTP \(status)"
      case .timedOut:
        return "the server did not answer in time"
      case .connectionLost:
        return "the server closed the connection without answering"
      }
    }

    /// Classifies an error from ``APIClient`` for the request to `url`.
    public init(_ error: Swift.Error, url: URL) {
      switch error {
      case let error as API.Error:
        self = error
      case let status as APIClient.HTTPStatusError:
        self = .serverError(status: status.status, url: url)
      case let urlError as URLError:
        switch urlError.code {
        case .timedOut:
          self = .timedOut(url)
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource:
          self = .connectionLost(url)
        default:
          self = .addressUnreachable(url)
        }
      default:
        self = .invalidResponse
      }
    }
  }

  /// The API's endpoints.
  public enum EndPoint: Hashable, Sendable {
    /// The newest stories (the chapter's `stories`).
    case stories
    /// One story (the chapter's `story(id)`).
    case story(Int)
    /// The ids of a feed.
    case feed(Feed)
    /// Any item.
    case item(Int)
    /// A user.
    case user(String)
    /// The largest item id.
    case maxItem
    /// The items and profiles that changed recently.
    case updates

    /// The official API's base URL.
    public static let baseURL = URL(string: "https://hacker-news.firebaseio.com/v0/")!

    /// The endpoint's URL on the official API.
    public var url: URL { url(relativeTo: Self.baseURL) }

    /// The endpoint's URL below `base` (which ends in `/v0/` for the official API).
    public func url(relativeTo base: URL) -> URL {
      let path: String
      switch self {
      case .stories: path = "newstories"
      case .story(let id), .item(let id): path = "item/\(id)"
      case .feed(let feed): path = feed.path
      case .user(let name):
        path = "user/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
      case .maxItem: path = "maxitem"
      case .updates: path = "updates"
      }
      return base.appendingPathComponent(path + ".json")
    }
  }

  /// The most stories ``mergedStories(ids:)`` fetches (the chapter's `maxStories`).
  public let maxStories: Int
  /// The API's base URL, ending in `/v0/` for the official API.
  public let baseURL: URL
  /// The network layer.
  public let client: APIClient
  /// How the reader's methods retry.
  public let retryPolicy: RetryPolicy

  private let decoder = JSONDecoder()
  // The chapter makes this queue concurrent. It is serial here: `receive(on:)` and `delay`
  // schedule a value and the completion after it as two separate blocks, and on a
  // concurrent queue the completion can run first (measured with Confluence: 169 of 2,000
  // `Just(1).receive(on:)` lost their value), which would lose stories.
  private let apiQueue = DispatchQueue(label: "API", qos: .default)

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - baseURL: The API's base URL; the official API by default.
  ///   - session: The session that performs the requests.
  ///   - maxStories: The most stories ``mergedStories(ids:)`` fetches.
  ///   - retryPolicy: How the reader's methods retry failed requests.
  public init(
    baseURL: URL = EndPoint.baseURL, session: URLSession = .shared, maxStories: Int = 10,
    retryPolicy: RetryPolicy = .default
  ) {
    self.baseURL = baseURL.absoluteString.hasSuffix("/") ? baseURL : baseURL.appendingPathComponent("")
    self.client = APIClient(session: session)
    self.maxStories = maxStories
    self.retryPolicy = retryPolicy
  }

  /// The request for `endpoint`, with the retry policy's time limit.
  public func request(_ endpoint: EndPoint) -> URLRequest {
    var request = URLRequest(url: endpoint.url(relativeTo: baseURL))
    request.timeoutInterval = max(1, retryPolicy.timeout.rounded(.up))
    return request
  }

  // MARK: - The chapter's API

  /// One story, or nothing if it cannot be fetched or decoded.
  ///
  /// Errors are swallowed (the chapter catches them with `Empty`): the publisher finishes
  /// without a value. Use ``item(id:)`` to learn what went wrong.
  public func story(id: Int) -> AnyPublisher<Story, Error> {
    client.session
      .dataTaskPublisher(for: request(.story(id)))
      .receive(on: apiQueue)
      .map(\.data)
      .decode(type: Story.self, decoder: decoder)
      .catch { _ in Empty<Story, Error>() }
      .eraseToAnyPublisher()
  }

  /// The stories of the first ``maxStories`` ids, merged: each as soon as it arrives.
  ///
  /// - Precondition: `storyIDs` is not empty.
  public func mergedStories(ids storyIDs: [Int]) -> AnyPublisher<Story, Error> {
    let storyIDs = Array(storyIDs.prefix(maxStories))
    precondition(!storyIDs.isEmpty, "API.mergedStories(ids:) needs at least one id")

    let initialPublisher = story(id: storyIDs[0])
    let remainder = Array(storyIDs.dropFirst())

    return remainder.reduce(initialPublisher) { combined, id in
      combined
        .merge(with: story(id: id))
        .eraseToAnyPublisher()
    }
  }

  /// The newest stories, as a list that grows (sorted newest first) as each one arrives.
  ///
  /// Fails with ``Error/addressUnreachable(_:)`` if the list cannot be fetched and with
  /// ``Error/invalidResponse`` if it does not decode.
  public func stories() -> AnyPublisher<[Story], Error> {
    let url = EndPoint.stories.url(relativeTo: baseURL)
    return client.session
      .dataTaskPublisher(for: request(.stories))
      .map(\.data)
      .decode(type: [Int].self, decoder: decoder)
      .mapError { error -> API.Error in
        switch error {
        case is URLError:
          return Error.addressUnreachable(url)
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

  // MARK: - The reader's API

  /// Fetches `endpoint` and decodes it as `T`, with retries.
  public func fetch<T: Decodable>(_ endpoint: EndPoint, as type: T.Type = T.self) -> AnyPublisher<T, Error> {
    let request = self.request(endpoint)
    let url = request.url ?? baseURL
    return
      (client.run(request, retrying: retryPolicy, scheduler: apiQueue)
      as AnyPublisher<APIClient.Response<T>, Swift.Error>)
      .map(\.value)
      .mapError { API.Error($0, url: url) }
      .eraseToAnyPublisher()
  }

  /// Any item: a story, comment, job, poll or poll option; `nil` if the server has no item
  /// with this id (the API answers `null`).
  public func item(id: Int) -> AnyPublisher<Item?, Error> {
    fetch(.item(id))
  }

  /// A user; `nil` if there is no such user.
  public func user(id: String) -> AnyPublisher<User?, Error> {
    fetch(.user(id))
  }

  /// The largest item id.
  public func maxItem() -> AnyPublisher<Int, Error> {
    fetch(.maxItem)
  }

  /// The items and profiles that changed recently.
  public func updates() -> AnyPublisher<Updates, Error> {
    fetch(.updates)
  }

  /// The ids of a feed, in rank order.
  public func storyIDs(_ feed: Feed) -> AnyPublisher<[Int], Error> {
    fetch(.feed(feed))
  }

  /// The items of `ids`, each as soon as it arrives, with at most `maxConcurrent` requests
  /// in flight.
  ///
  /// A failure is delivered as the ``Ranked/result`` of its id, so one failed request never
  /// costs the items that did arrive. Requests start in the order of `ids`.
  ///
  /// Back-pressure: `flatMap(maxPublishers: .max(maxConcurrent))` — a new request starts
  /// when one finishes.
  public func items(ids: [Int], maxConcurrent: Int) -> AnyPublisher<Ranked<Item?>, Never> {
    ids.enumerated().publisher
      .flatMap(maxPublishers: .max(max(1, maxConcurrent))) { rank, id in
        self.item(id: id)
          .map { Ranked(rank: rank, id: id, result: .success($0)) }
          .catch { Just(Ranked(rank: rank, id: id, result: .failure($0))) }
      }
      .eraseToAnyPublisher()
  }

  /// A feed: first its ids (``FeedEvent/listed(_:)``), then its first `limit` items, each
  /// as soon as it arrives (``FeedEvent/item(_:)``), with at most `maxConcurrent` requests
  /// in flight.
  ///
  /// Fails only if the list of ids cannot be fetched; a failed item arrives as a
  /// ``Ranked`` failure.
  public func feed(_ feed: Feed, limit: Int, maxConcurrent: Int) -> AnyPublisher<FeedEvent, Error> {
    storyIDs(feed)
      .flatMap { ids -> AnyPublisher<FeedEvent, Error> in
        let ids = Array(ids.prefix(max(0, limit)))
        return Just(FeedEvent.listed(ids))
          .append(self.items(ids: ids, maxConcurrent: maxConcurrent).map(FeedEvent.item))
          .setFailureType(to: Error.self)
          .eraseToAnyPublisher()
      }
      .eraseToAnyPublisher()
  }

  /// The comments below `root`, breadth-first: every comment of one depth, then their
  /// replies, with at most `maxConcurrent` requests in flight.
  ///
  /// Each comment arrives as soon as it is fetched; ``Ranked/rank`` counts in breadth-first
  /// order. Missing (`null`) and failed comments arrive too, so the caller can count them;
  /// the replies of a failed comment are not fetched.
  public func comments(of root: Item, maxConcurrent: Int) -> AnyPublisher<Ranked<Item?>, Never> {
    func level(_ ids: [Int], startingAt first: Int) -> AnyPublisher<Ranked<Item?>, Never> {
      guard !ids.isEmpty else { return Empty().eraseToAnyPublisher() }
      return Deferred { () -> AnyPublisher<Ranked<Item?>, Never> in
        let replies = RepliesCollector()
        return self.items(ids: ids, maxConcurrent: maxConcurrent)
          .map { Ranked(rank: first + $0.rank, id: $0.id, result: $0.result) }
          .handleEvents(receiveOutput: { replies.add($0) })
          .append(Deferred { level(replies.inRankOrder(), startingAt: first + ids.count) })
          .eraseToAnyPublisher()
      }
      .eraseToAnyPublisher()
    }
    return level(root.kids, startingAt: 0)
  }
}

/// A value fetched for one id of a list, with its place in the list.
public struct Ranked<Value: Sendable>: Sendable {
  /// The place of the id in the list, from 0.
  public let rank: Int
  /// The requested id.
  public let id: Int
  /// The value, or why it could not be fetched.
  public let result: Result<Value, API.Error>

  /// Creates a ranked result.
  public init(rank: Int, id: Int, result: Result<Value, API.Error>) {
    self.rank = rank
    self.id = id
    self.result = result
  }
}

extension Ranked: Equatable where Value: Equatable {}

/// What ``API/feed(_:limit:maxConcurrent:)`` publishes.
public enum FeedEvent: Sendable {
  /// The feed's ids, in rank order, cut to the limit: sent once, first.
  case listed([Int])
  /// One item of the feed, as soon as it arrives.
  case item(Ranked<Item?>)
}

/// The replies of one level of comments, collected as they arrive, for the next level.
private final class RepliesCollector: @unchecked Sendable {
  // Safe: `lock` guards `kidsByRank`.
  private let lock = NSLock()
  private var kidsByRank: [(rank: Int, kids: [Int])] = []

  func add(_ ranked: Ranked<Item?>) {
    guard case .success(let item?) = ranked.result, !item.kids.isEmpty else { return }
    lock.withLock { kidsByRank.append((ranked.rank, item.kids)) }
  }

  /// The replies' ids, in the order of their parents' ranks.
  func inRankOrder() -> [Int] {
    lock.withLock { kidsByRank.sorted { $0.rank < $1.rank }.flatMap(\.kids) }
  }
}
