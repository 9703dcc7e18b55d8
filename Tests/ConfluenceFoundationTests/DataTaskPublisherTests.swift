import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSession.dataTaskPublisher` against a real HTTP server on 127.0.0.1 that each test
/// starts (`LocalHTTPServer`): what arrives for each kind of answer, when the task starts,
/// what cancel does, and load.
final class DataTaskPublisherTests: XCTestCase {
  private var server: LocalHTTPServer!

  override func setUpWithError() throws {
    server = try LocalHTTPServer()
  }

  override func tearDown() {
    server.stop()
    server = nil
  }

  private func url(_ path: String) -> URL { server.baseURL.appendingPathComponent(path) }

  /// Subscribes a test subscriber and waits (up to `timeout`) for its completion.
  private func run(
    _ publisher: URLSession.DataTaskPublisher, timeout: TimeInterval = 10
  ) -> TestSubscriber<URLSession.DataTaskPublisher.Output, URLError> {
    let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>()
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    publisher.subscribe(subscriber)
    wait(for: [done], timeout: timeout)
    return subscriber
  }

  func test_200_deliversTheBodyAndResponse_thenFinishes() throws {
    server.route("/v0/item/1.json", .respond(status: 200, body: Data(#"{"id":1}"#.utf8)))
    let subscriber = run(URLSession.shared.dataTaskPublisher(for: url("/v0/item/1.json")))
    XCTAssertEqual(subscriber.values.count, 1)
    let value = try XCTUnwrap(subscriber.values.first)
    XCTAssertEqual(String(decoding: value.data, as: UTF8.self), #"{"id":1}"#)
    XCTAssertEqual((value.response as? HTTPURLResponse)?.statusCode, 200)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.subscriptionDescription, "DataTaskPublisher")
  }

  func test_404And500_areValues_statusIsTheCallersBusiness() {
    server.route("/missing", .respond(status: 404, body: Data("no".utf8)))
    server.route("/broken", .respond(status: 500, body: Data("oops".utf8)))
    for (path, status) in [("/missing", 404), ("/broken", 500)] {
      let subscriber = run(URLSession.shared.dataTaskPublisher(for: url(path)))
      XCTAssertEqual(subscriber.values.map { ($0.response as? HTTPURLResponse)?.statusCode }, [status], path)
      XCTAssertEqual(subscriber.completion, .finished, path)
    }
  }

  func test_connectionRefused_failsWithAURLError() throws {
    let closed = try LocalHTTPServer()
    let refusedURL = closed.baseURL.appendingPathComponent("/x")
    closed.stop()
    let subscriber = run(URLSession.shared.dataTaskPublisher(for: refusedURL))
    XCTAssertEqual(subscriber.values.count, 0)
    guard case .failure(let error)? = subscriber.completion else { return XCTFail("no failure") }
    XCTAssertEqual(error.code, .cannotConnectToHost)
  }

  func test_droppedConnection_failsWithAURLError() {
    server.route("/drop", .drop)
    let subscriber = run(URLSession.shared.dataTaskPublisher(for: url("/drop")))
    XCTAssertEqual(subscriber.values.count, 0)
    guard case .failure? = subscriber.completion else { return XCTFail("expected a URLError failure") }
  }

  func test_timeout_failsWithTimedOut() {
    server.route("/slow", .respond(status: 200, body: Data(), delay: 5))
    var request = URLRequest(url: url("/slow"))
    // Whole seconds: swift-corelibs-foundation hands the interval to libcurl in whole
    // seconds, and below one second the request failed at once.
    request.timeoutInterval = 1
    let started = Date()
    let subscriber = run(URLSession.shared.dataTaskPublisher(for: request))
    XCTAssertEqual(subscriber.completion, .failure(URLError(.timedOut)))
    XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.8, "failed at the timeout, not before")
  }

  func test_cancelMidFlight_closesTheConnection_andDeliversNothing() {
    server.route("/slow", .respond(status: 200, body: Data("late".utf8), delay: 3))
    let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>()
    URLSession.shared.dataTaskPublisher(for: url("/slow")).subscribe(subscriber)
    let asked = Date(timeIntervalSinceNow: 5)
    while server.requestedPaths.isEmpty && Date() < asked { usleep(10_000) }
    XCTAssertEqual(server.requestedPaths, ["/slow"])
    subscriber.cancel()
    let closed = Date(timeIntervalSinceNow: 3)
    while server.closedBeforeAnswer.isEmpty && Date() < closed { usleep(10_000) }
    XCTAssertEqual(server.closedBeforeAnswer, ["/slow"], "the server saw the connection close")
    usleep(200_000)
    XCTAssertEqual(subscriber.values.count, 0)
    XCTAssertNil(subscriber.completion)
    XCTAssertEqual(subscriber.violations, [])
  }

  func test_noDemand_noRequest_theTaskStartsOnTheFirstRequest() {
    server.route("/lazy", .respond(status: 200, body: Data("x".utf8)))
    let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: .none)
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    URLSession.shared.dataTaskPublisher(for: url("/lazy")).subscribe(subscriber)
    usleep(300_000)
    XCTAssertEqual(server.requestedPaths, [], "nothing asked for, nothing fetched")
    subscriber.request(.max(1))
    wait(for: [done], timeout: 10)
    XCTAssertEqual(server.requestedPaths, ["/lazy"])
    XCTAssertEqual(subscriber.values.count, 1)
  }

  func test_fiveMegabyteBody_arrivesWhole() throws {
    let body = Data((0..<(5 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    server.route("/big", .respond(status: 200, body: body, contentType: "application/octet-stream"))
    let subscriber = run(URLSession.shared.dataTaskPublisher(for: url("/big")), timeout: 30)
    XCTAssertEqual(subscriber.values.first?.data, body)
  }

  func test_fiftyConcurrentRequests_onASessionWithItsOwnConfiguration() {
    for i in 0..<50 { server.route("/item/\(i)", .respond(status: 200, body: Data("\(i)".utf8))) }
    let session = URLSession(configuration: .ephemeral)
    let subscriber = TestSubscriber<Int, URLError>()
    let done = expectation(description: "all")
    subscriber.onCompletion = { _ in done.fulfill() }
    Publishers.MergeMany((0..<50).map { session.dataTaskPublisher(for: url("/item/\($0)")) })
      .map { Int(String(decoding: $0.data, as: UTF8.self)) ?? -1 }
      .subscribe(subscriber)
    wait(for: [done], timeout: 30)
    XCTAssertEqual(subscriber.values.sorted(), Array(0..<50))
    XCTAssertEqual(subscriber.completion, .finished)
    session.invalidateAndCancel()
  }

  func test_malformedJSON_failsWithTheDecodingError() {
    struct Item: Decodable { let id: Int }
    server.route("/bad", .respond(status: 200, body: Data(#"{"id": "#.utf8)))
    let done = expectation(description: "completion")
    var failure: Error?
    let cancellable = URLSession.shared.dataTaskPublisher(for: url("/bad"))
      .map(\.data)
      .decode(type: Item.self, decoder: JSONDecoder())
      .sink(
        receiveCompletion: {
          if case .failure(let error) = $0 { failure = error }
          done.fulfill()
        }, receiveValue: { _ in })
    wait(for: [done], timeout: 10)
    XCTAssertTrue(failure is DecodingError, "\(String(describing: failure))")
    cancellable.cancel()
  }

  // "Using Combine": a request whose status is checked with tryMap, decoded, retried, and
  // replaced by a fallback when it still fails.
  func test_bookPattern_tryMapStatus_decode_retry_catch() {
    struct Post: Decodable, Equatable { let id: Int }
    enum APIError: Error { case badStatus(Int) }
    server.route("/post", .respond(status: 500, body: Data()))
    let done = expectation(description: "completion")
    var received: [Post] = []
    let cancellable = URLSession.shared.dataTaskPublisher(for: url("/post"))
      .tryMap { data, response -> Data in
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw APIError.badStatus(status) }
        return data
      }
      .decode(type: Post.self, decoder: JSONDecoder())
      .retry(2)
      .catch { _ in Just(Post(id: -1)) }
      .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { received.append($0) })
    wait(for: [done], timeout: 10)
    XCTAssertEqual(received, [Post(id: -1)])
    XCTAssertEqual(server.requestedPaths, ["/post", "/post", "/post"], "one request and two retries")
    cancellable.cancel()
  }

  // "Using Combine": wrapping a request in a Future.
  func test_bookPattern_futureWrappedRequest() {
    server.route("/hello", .respond(status: 200, body: Data("hello".utf8), contentType: "text/plain"))
    let target = url("/hello")
    let future = Future<String, Error> { promise in
      URLSession.shared.dataTask(with: target) { data, _, error in
        if let error {
          promise(.failure(error))
        } else {
          promise(.success(String(decoding: data ?? Data(), as: UTF8.self)))
        }
      }.resume()
    }
    let done = expectation(description: "value")
    var text: String?
    let cancellable = future.sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { text = $0 })
    wait(for: [done], timeout: 10)
    XCTAssertEqual(text, "hello")
    cancellable.cancel()
  }
}
