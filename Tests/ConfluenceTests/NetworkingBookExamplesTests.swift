import Confluence
import ConfluenceTesting
import Foundation
import XCTest

/// The networking examples of "Combine in Action" that need no sharing (chapter 9's plain request
/// and its decoding variants; chapter 14's Hacker News `API`, which fans requests in with
/// `merge` and `flatMap`), with a local `FakeServer` standing in for `URLSession` until
/// ConfluenceFoundation's `dataTaskPublisher` is usable here. Chapter 9's `multicast` and
/// chapter 13's `share`/`multicast` examples are in ResourceSharingBookTests.
///
/// The book's `.receive(on: apiQueue)` is left out: this test target has no Dispatch
/// scheduler, and the responses arrive in the order the test chooses instead.
final class NetworkingBookExamplesTests: XCTestCase {
  // MARK: Chapter 9: URLSession extensions and Codable support

  func test_chapter9_dataTaskPublisher_sinkReceivesDataAndResponse() {
    let log = Transcript()
    let server = FakeServer()
    let url = URL(string: "https://mysite.com/mydata.json")!
    server.routes[url] = Data(count: 303_425)

    let subscription =
      server
      .dataTaskPublisher(for: url)
      .sink(
        receiveCompletion: { completion in
          if case .failure(let err) = completion {
            log.say("Retrieving data failed with error \(err)")
          }
        },
        receiveValue: { data, response in
          log.say("Retrieved data of size \(data.count), response = \(response)")
        })
    XCTAssertEqual(server.requested, [url], "the request starts on subscription")
    server.respond(to: url)
    XCTAssertEqual(log.lines, ["Retrieved data of size 303425, response = 200 https://mysite.com/mydata.json"])
    subscription.cancel()
  }

  func test_chapter9_dataTaskPublisher_failureIsHandled() {
    let log = Transcript()
    let server = FakeServer()
    let url = URL(string: "https://mysite.com/missing.json")!
    let subscription =
      server
      .dataTaskPublisher(for: url)
      .sink(
        receiveCompletion: { completion in
          if case .failure(let err) = completion {
            log.say("Retrieving data failed with error \(err.code == .fileDoesNotExist)")
          }
        },
        receiveValue: { data, _ in log.say("Retrieved data of size \(data.count)") })
    server.respond(to: url)
    XCTAssertEqual(log.lines, ["Retrieving data failed with error true"])
    subscription.cancel()
  }

  func test_chapter9_tryMapDecodeAndDecodeOperator_agree() {
    struct MyType: Codable, Equatable {
      var name: String
      var count: Int
    }
    let server = FakeServer()
    let url = URL(string: "https://mysite.com/mydata.json")!
    server.routes[url] = Data(#"{"name":"combine","count":3}"#.utf8)

    var objects: [MyType] = []
    let viaTryMap =
      server
      .dataTaskPublisher(for: url)
      .tryMap { data, _ in
        try JSONDecoder().decode(MyType.self, from: data)
      }
      .sink(receiveCompletion: { _ in }, receiveValue: { objects.append($0) })
    let viaDecode =
      server
      .dataTaskPublisher(for: url)
      .map(\.data)
      .decode(type: MyType.self, decoder: JSONDecoder())
      .sink(receiveCompletion: { _ in }, receiveValue: { objects.append($0) })
    server.respond(to: url)
    XCTAssertEqual(objects, [MyType(name: "combine", count: 3), MyType(name: "combine", count: 3)])
    _ = (viaTryMap, viaDecode)
  }

  // MARK: Chapter 14: the Hacker News API (merge and flatMap)

  func test_chapter14_story_decodesOrEndsEmptyOnError() {
    let server = FakeServer.hackerNews()
    let api = API(server: server)
    let log = Transcript()
    var subscriptions = [AnyCancellable]()
    api.story(id: 1000)
      .sink(receiveCompletion: { log.say("\($0)") }, receiveValue: { log.say(String(reflecting: $0)) })
      .store(in: &subscriptions)
    api.story(id: -5)
      .sink(receiveCompletion: { log.say("\($0)") }, receiveValue: { log.say(String(reflecting: $0)) })
      .store(in: &subscriptions)
    server.respond(to: API.EndPoint.story(1000).url)
    server.respond(to: API.EndPoint.story(-5).url)
    XCTAssertEqual(
      log.lines,
      [
        "",
        "How Important is the .com TLD?",
        "by python_kiss",
        "http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/",
        "-----",
        "finished",
        // -5: the error was caught and replaced by Empty.
        "finished",
      ])
  }

  func test_chapter14_mergedStories_emitsEachStoryAsItsResponseArrives() {
    let server = FakeServer.hackerNews()
    let api = API(server: server)
    let subscriber = TestSubscriber<API.Story, API.Error>()
    api.mergedStories(ids: [1000, 1001, 1002]).subscribe(subscriber)
    XCTAssertEqual(server.requested.count, 3, "all requests go out at once")

    server.respond(to: API.EndPoint.story(1002).url)
    server.respond(to: API.EndPoint.story(1000).url)
    XCTAssertEqual(subscriber.values.map(\.id), [1002, 1000])
    XCTAssertNil(subscriber.completion, "merge waits for every story")
    server.respond(to: API.EndPoint.story(1001).url)
    XCTAssertEqual(
      subscriber.values.map(\.title),
      [
        "The Battle for Mobile Search", "How Important is the .com TLD?", "Wireless: India's Hot, China's Not",
      ])
    XCTAssertEqual(subscriber.eventDescriptions.last, "completion(finished)")
  }

  func test_chapter14_mergedStories_aFailedStoryIsSkipped() {
    let server = FakeServer.hackerNews()
    let api = API(server: server)
    let subscriber = TestSubscriber<API.Story, API.Error>()
    api.mergedStories(ids: [1000, 9999, 1001]).subscribe(subscriber)
    server.respondToAll()
    XCTAssertEqual(subscriber.values.map(\.id), [1000, 1001])
    XCTAssertEqual(subscriber.eventDescriptions.last, "completion(finished)")
  }

  func test_chapter14_stories_growingSortedListsAsStoriesArrive() {
    let server = FakeServer.hackerNews()
    let api = API(server: server)
    let subscriber = TestSubscriber<[API.Story], API.Error>()
    api.stories().subscribe(subscriber)
    XCTAssertEqual(server.requested, [API.EndPoint.stories.url])

    server.respond(to: API.EndPoint.stories.url)
    XCTAssertEqual(server.requested.count, 4, "flatMap fetched the three listed stories")
    server.respond(to: API.EndPoint.story(1001).url)
    server.respond(to: API.EndPoint.story(1002).url)
    server.respond(to: API.EndPoint.story(1000).url)
    XCTAssertEqual(subscriber.values.map { $0.map(\.id) }, [[1001], [1001, 1002], [1000, 1001, 1002]])
    XCTAssertEqual(subscriber.eventDescriptions.last, "completion(finished)")
  }

  func test_chapter14_stories_mapsErrorsToAPIError() {
    let unreachable = FakeServer()
    let subscriber = TestSubscriber<[API.Story], API.Error>()
    API(server: unreachable).stories().subscribe(subscriber)
    unreachable.respondToAll()
    XCTAssertEqual(subscriber.completion, .failure(.addressUnreachable(API.EndPoint.stories.url)))

    let garbled = FakeServer()
    garbled.routes[API.EndPoint.stories.url] = Data(#"{"not":"a list"}"#.utf8)
    let second = TestSubscriber<[API.Story], API.Error>()
    API(server: garbled).stories().subscribe(second)
    garbled.respondToAll()
    XCTAssertEqual(second.completion, .failure(.invalidResponse))

    let empty = FakeServer()
    empty.routes[API.EndPoint.stories.url] = Data("[]".utf8)
    let third = TestSubscriber<[API.Story], API.Error>()
    API(server: empty).stories().subscribe(third)
    empty.respondToAll()
    XCTAssertEqual(third.values.count, 0, "an empty list is filtered out")
    XCTAssertEqual(third.completion, .finished)
  }
}

/// The book's chapter 14 API client, over a `FakeServer`.
private struct API {
  /// API errors.
  enum Error: LocalizedError, Equatable {
    case addressUnreachable(URL)
    case invalidResponse
  }

  /// API endpoints.
  enum EndPoint {
    static let baseURL = URL(string: "https://hacker-news.firebaseio.com/v0/")!

    case stories
    case story(Int)

    var url: URL {
      switch self {
      case .stories: return EndPoint.baseURL.appendingPathComponent("newstories.json")
      case .story(let id): return EndPoint.baseURL.appendingPathComponent("item/\(id).json")
      }
    }
  }

  // As in the book, `Error` inside `API` is `API.Error`: `story(id:)` catches every failure
  // into an `Empty<Story, Error>`.

  /// The playground's Story type.
  struct Story: Codable, Comparable, CustomDebugStringConvertible {
    let id: Int
    let title: String
    let by: String
    let time: TimeInterval
    let url: String

    static func < (lhs: Story, rhs: Story) -> Bool { lhs.id < rhs.id }

    var debugDescription: String { "\n\(title)\nby \(by)\n\(url)\n-----" }
  }

  let server: FakeServer
  var maxStories = 10
  let decoder = JSONDecoder()

  func story(id: Int) -> AnyPublisher<Story, Error> {
    server
      .dataTaskPublisher(for: EndPoint.story(id).url)
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
    server
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

/// Stands in for `URLSession.shared.dataTaskPublisher(for:)`: each subscription is a
/// request (recorded when first asked for a value), answered when the test calls
/// ``respond(to:)`` with the route's body and a "200 <url>" response, or with
/// `URLError(.fileDoesNotExist)` for an unknown route. Single-threaded.
private final class FakeServer {
  var routes: [URL: Data] = [:]
  private(set) var requested: [URL] = []
  private var pending: [(url: URL, request: Request)] = []

  static func hackerNews() -> FakeServer {
    let server = FakeServer()
    server.routes[API.EndPoint.stories.url] = Data("[1000, 1001, 1002]".utf8)
    let stories = [
      (
        1000, "How Important is the .com TLD?",
        "http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/"
      ),
      (1001, "Wireless: India's Hot, China's Not", "http://www.redherring.com/Article.aspx?a=21355"),
      (
        1002, "The Battle for Mobile Search",
        "http://www.businessweek.com/technology/content/feb2007/tc20070220_828216.htm?campaign_id=rss_daily"
      ),
    ]
    for (id, title, url) in stories {
      let story = API.Story(id: id, title: title, by: "python_kiss", time: 1_172_394_646, url: url)
      server.routes[API.EndPoint.story(id).url] = try! JSONEncoder().encode(story)
    }
    return server
  }

  func dataTaskPublisher(for url: URL) -> DataTaskPublisher { DataTaskPublisher(server: self, url: url) }

  /// Answers the pending requests for `url`.
  func respond(to url: URL) {
    let answering = pending.filter { $0.url == url }
    pending.removeAll { $0.url == url }
    for (url, request) in answering { answer(request, url) }
  }

  /// Answers every pending request, in the order they were made, including ones made
  /// while answering.
  func respondToAll() {
    while !pending.isEmpty {
      let (url, request) = pending.removeFirst()
      answer(request, url)
    }
  }

  private func answer(_ request: Request, _ url: URL) {
    guard !request.isCancelled else { return }
    if let body = routes[url] {
      request.receiveValue((data: body, response: "200 \(url.absoluteString)"))
      request.receiveCompletion(.finished)
    } else {
      request.receiveCompletion(.failure(URLError(.fileDoesNotExist)))
    }
  }

  struct DataTaskPublisher: Publisher {
    typealias Output = (data: Data, response: String)
    typealias Failure = URLError

    let server: FakeServer
    let url: URL

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == URLError {
      let request = Request(
        receiveValue: { _ = subscriber.receive($0) }, receiveCompletion: { subscriber.receive(completion: $0) })
      request.onStart = { [server, url] in
        server.requested.append(url)
        server.pending.append((url, request))
      }
      subscriber.receive(subscription: request)
    }
  }

  final class Request: Subscription, CustomStringConvertible {
    let receiveValue: ((data: Data, response: String)) -> Void
    let receiveCompletion: (Subscribers.Completion<URLError>) -> Void
    var onStart: (() -> Void)?
    private(set) var isCancelled = false

    init(
      receiveValue: @escaping ((data: Data, response: String)) -> Void,
      receiveCompletion: @escaping (Subscribers.Completion<URLError>) -> Void
    ) {
      self.receiveValue = receiveValue
      self.receiveCompletion = receiveCompletion
    }

    func request(_ demand: Subscribers.Demand) {
      let start = onStart
      onStart = nil
      start?()
    }

    func cancel() {
      isCancelled = true
      onStart = nil
    }

    var description: String { "DataTaskPublisher" }
  }
}
