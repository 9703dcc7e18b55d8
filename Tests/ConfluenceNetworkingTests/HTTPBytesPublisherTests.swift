import Confluence
import ConfluenceNetworking
import ConfluenceTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HTTPBytesPublisher` against `LocalHTTPServer` on 127.0.0.1: what arrives for each kind
/// of body and answer, when the request is sent, what demand and cancel do to the
/// connection, and the same through the `URLSession` transport.
final class HTTPBytesPublisherTests: XCTestCase {
  private var server: LocalHTTPServer!

  override func setUpWithError() throws {
    server = try LocalHTTPServer()
  }

  override func tearDown() {
    server.stop()
    server = nil
  }

  private func body(_ subscriber: TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>) -> Data {
    subscriber.values.compactMap(\.bytes).reduce(Data(), +)
  }

  func test_chunkedBody_deliversTheResponseFirst_thenTheChunksAsTheyArrive() {
    server.route(
      "/chunks",
      .stream(contentType: "application/octet-stream", headers: ["X-Stream": "yes"]) { writer in
        writer.write("first ")
        writer.pause(0.05)
        writer.write("second ")
        writer.pause(0.05)
        writer.write("third")
      })
    let subscriber = record(URLSession.shared.bytesPublisher(for: server.url("/chunks")))
    let response = subscriber.values.first?.response
    XCTAssertEqual(response?.statusCode, 200)
    XCTAssertEqual(response?.value(forHTTPHeaderField: "X-Stream"), "yes")
    XCTAssertEqual(subscriber.values.dropFirst().allSatisfy { $0.bytes?.isEmpty == false }, true)
    XCTAssertGreaterThanOrEqual(subscriber.values.count, 4, "the pauses make separate chunks: \(subscriber.values)")
    XCTAssertEqual(String(decoding: body(subscriber), as: UTF8.self), "first second third")
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.subscriptionDescription, "HTTPBytesPublisher")
  }

  func test_contentLengthBody_isReadToItsLength() {
    let payload = Data((0..<200_000).map { UInt8($0 % 251) })
    server.route("/fixed", .respond(status: 200, body: payload))
    let subscriber = record(URLSession.shared.bytesPublisher(for: server.url("/fixed")))
    XCTAssertEqual(body(subscriber), payload)
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_bodyWithoutLength_endsAtTheClose() {
    server.route(
      "/close",
      .stream(contentType: "text/plain", chunked: false) { writer in
        writer.write("until ")
        writer.pause(0.02)
        writer.write("the close")
      })
    let subscriber = record(URLSession.shared.bytesPublisher(for: server.url("/close")))
    XCTAssertEqual(String(decoding: body(subscriber), as: UTF8.self), "until the close")
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_errorStatus_isAValue_statusIsTheCallersBusiness() {
    server.route("/missing", .respond(status: 404, body: Data("no such thing".utf8), contentType: "text/plain"))
    let subscriber = record(URLSession.shared.bytesPublisher(for: server.url("/missing")))
    XCTAssertEqual(subscriber.values.first?.response?.statusCode, 404)
    XCTAssertEqual(String(decoding: body(subscriber), as: UTF8.self), "no such thing")
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_connectionRefused_failsWithCannotConnectToHost() throws {
    let closed = try LocalHTTPServer()
    let url = closed.url("/x")
    closed.stop()
    let subscriber = record(URLSession.shared.bytesPublisher(for: url))
    XCTAssertEqual(subscriber.values, [])
    XCTAssertEqual(subscriber.completion, .failure(.connectionFailed(URLError(.cannotConnectToHost))))
  }

  func test_droppedBeforeAnswering_failsWithNetworkConnectionLost() {
    server.route("/drop", .drop)
    let subscriber = record(URLSession.shared.bytesPublisher(for: server.url("/drop")))
    XCTAssertEqual(subscriber.values, [])
    XCTAssertEqual(subscriber.completion, .failure(.connectionFailed(URLError(.networkConnectionLost))))
  }

  func test_droppedMidBody_deliversWhatCame_thenFailsWithNetworkConnectionLost() {
    server.route(
      "/half",
      .stream(contentType: "text/plain") { writer in
        writer.write("the first half")
        writer.pause(0.05)
        writer.drop()
      })
    let subscriber = record(URLSession.shared.bytesPublisher(for: server.url("/half")))
    XCTAssertEqual(String(decoding: body(subscriber), as: UTF8.self), "the first half")
    XCTAssertEqual(subscriber.completion, .failure(.connectionFailed(URLError(.networkConnectionLost))))
  }

  func test_noDemand_sendsNoRequest_theFirstRequestSendsIt() {
    server.route("/lazy", .respond(status: 200, body: Data("x".utf8)))
    let subscriber = TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>(initialDemand: .none)
    URLSession.shared.bytesPublisher(for: server.url("/lazy")).subscribe(subscriber)
    usleep(200_000)
    XCTAssertEqual(server.requestedPaths, [], "nothing asked for, nothing sent")
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    subscriber.request(.unlimited)
    wait(for: [done], timeout: 10)
    XCTAssertEqual(server.requestedPaths, ["/lazy"])
  }

  func test_requestHeaders_andTheSessionsAdditionalHeaders_areSent() {
    server.route("/echo", .respond(status: 200, body: Data()))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpAdditionalHeaders = ["X-Session": "s", "X-Both": "session"]
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    var request = URLRequest(url: server.url("/echo?q=1"))
    request.setValue("r", forHTTPHeaderField: "X-Request")
    request.setValue("request", forHTTPHeaderField: "X-Both")
    _ = record(session.bytesPublisher(for: request))
    let received = server.receivedRequests.first
    XCTAssertEqual(received?.target, "/echo?q=1")
    XCTAssertEqual(received?.header("X-Request"), "r")
    XCTAssertEqual(received?.header("X-Session"), "s")
    XCTAssertEqual(received?.header("X-Both"), "request", "the request's own header wins")
  }

  func test_redirect_isFollowed() {
    server.route("/old", .respond(status: 200, body: Data("unused".utf8)))
    server.route("/new", .respond(status: 200, body: Data("moved here".utf8)))
    server.route(
      "/moved",
      .stream(status: 307, contentType: "text/plain", chunked: false, headers: ["Location": "/new"]) { _ in })
    let subscriber = record(URLSession.shared.bytesPublisher(for: server.url("/moved")))
    XCTAssertEqual(String(decoding: body(subscriber), as: UTF8.self), "moved here")
    XCTAssertEqual(server.requestedPaths, ["/moved", "/new"])
  }

  /// The bound: with a subscriber that stops asking, the server's writes block once the
  /// kernel's buffers are full — the publisher reads nothing ahead of demand — and every byte
  /// arrives once the subscriber asks again.
  func test_subscriberThatStopsAsking_stopsTheReading_theServerBlocks_nothingIsLost() {
    let blockedAfter = Shared<Int?>(nil)
    let total = Shared(0)
    let block = Data(repeating: UInt8(ascii: "x"), count: 16 * 1024)
    server.route(
      "/firehose",
      .stream(contentType: "application/octet-stream") { writer in
        // Write until the client takes nothing for half a second, then (once it reads again)
        // 1 MiB more.
        while writer.bytesWritten < 64 << 20 {
          if writer.write(block, within: 0.5) == .blocked { break }
        }
        blockedAfter.value = writer.bytesWritten
        let more = writer.bytesWritten + (1 << 20)
        while writer.bytesWritten < more, writer.write(block) {}
        total.value = writer.bytesWritten
      })
    let subscriber = TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>(initialDemand: .max(2))
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    URLSession.shared.bytesPublisher(for: server.url("/firehose")).subscribe(subscriber)
    XCTAssertTrue(eventually { blockedAfter.value != nil }, "the server's writes blocked")
    let written = blockedAfter.value ?? .max
    // Kernel receive buffer (128 KiB asked, doubled by Linux) + the server's send buffer (64
    // KiB asked, doubled) + the one chunk delivered + the segments in flight.
    XCTAssertLessThan(written, 768 * 1024, "bytes the server could write while the subscriber asked for one chunk")
    XCTAssertEqual(subscriber.values.count, 2, "the response and one chunk, as asked")
    subscriber.request(.unlimited)
    wait(for: [done], timeout: 20)
    XCTAssertEqual(body(subscriber).count, total.value)
    XCTAssertEqual(subscriber.completion, .finished)
    print("HTTPBytesPublisher, demand of 1 chunk: the server blocked after \(written) bytes")
  }

  func test_cancelDuringARead_closesTheConnection_andDeliversNothingMore() {
    let started = Shared(false)
    server.route(
      "/slow",
      .stream(contentType: "text/plain") { writer in
        writer.write("one")
        started.value = true
        _ = writer.waitForClientToClose(timeout: 10)
      })
    let subscriber = TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>(strictCancellation: false)
    URLSession.shared.bytesPublisher(for: server.url("/slow")).subscribe(subscriber)
    XCTAssertTrue(eventually { started.value && subscriber.values.count == 2 })
    // The publisher is now waiting for bytes the server will not send.
    subscriber.cancel()
    XCTAssertTrue(eventually(timeout: 3) { server.closedBeforeAnswer == ["/slow"] }, "the server saw the close")
    XCTAssertNil(subscriber.completion)
  }

  func test_cancelBeforeTheResponse_closesTheConnection() {
    server.route("/late", .respond(status: 200, body: Data("late".utf8), delay: 3))
    let subscriber = TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>(strictCancellation: false)
    URLSession.shared.bytesPublisher(for: server.url("/late")).subscribe(subscriber)
    XCTAssertTrue(eventually { server.requestedPaths == ["/late"] })
    subscriber.cancel()
    XCTAssertTrue(eventually(timeout: 3) { server.closedBeforeAnswer == ["/late"] })
    XCTAssertEqual(subscriber.values, [])
    XCTAssertNil(subscriber.completion)
  }

  func test_cancelRelease_theSubscriptionAndItsConnectionAreFreed() {
    server.route(
      "/open",
      .stream(contentType: "text/plain") { writer in
        writer.write("x")
        _ = writer.waitForClientToClose(timeout: 10)
      })
    weak var weakSubscription: AnyObject?
    do {
      let subscriber = TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>(strictCancellation: false)
      URLSession.shared.bytesPublisher(for: server.url("/open")).subscribe(subscriber)
      XCTAssertTrue(eventually { subscriber.values.count == 2 })
      weakSubscription = subscriber.subscription as AnyObject?
      subscriber.cancel()
    }
    XCTAssertTrue(eventually(timeout: 3) { weakSubscription == nil }, "cancel let go of the subscription")
  }

  func test_demandOfOne_deliversTheResponseOnly_untilAskedAgain() {
    server.route("/x", .respond(status: 200, body: Data("body".utf8)))
    let subscriber = TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>(initialDemand: .max(1))
    URLSession.shared.bytesPublisher(for: server.url("/x")).subscribe(subscriber)
    XCTAssertTrue(eventually { subscriber.values.count == 1 })
    usleep(100_000)
    XCTAssertEqual(subscriber.values.count, 1, "no body without demand")
    XCTAssertNil(subscriber.completion, "the end is known only once the body is read")
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    subscriber.request(.max(5))
    wait(for: [done], timeout: 10)
    XCTAssertEqual(subscriber.values.compactMap(\.bytes), [Data("body".utf8)])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  // MARK: The URLSession transport

  func test_urlSessionTransport_deliversTheSameParts() {
    server.route(
      "/chunks",
      .stream(contentType: "text/plain") { writer in
        writer.write("through ")
        writer.pause(0.05)
        writer.write("URLSession")
      })
    let subscriber = record(
      URLSession.shared.bytesPublisher(for: URLRequest(url: server.url("/chunks")), transport: .urlSession()))
    XCTAssertEqual(subscriber.values.first?.response?.statusCode, 200)
    XCTAssertEqual(String(decoding: body(subscriber), as: UTF8.self), "through URLSession")
    XCTAssertEqual(subscriber.completion, .finished)
    // The transport's own session goes without a response cache; the caller's keeps its own
    // (`configuration` hands out the session's object, not a copy, on Linux).
    XCTAssertNotNil(URLSession.shared.configuration.urlCache)
  }

  func test_urlSessionTransport_cannotPause_failsBeyondItsBufferLimit() {
    let block = Data(repeating: UInt8(ascii: "x"), count: 16 * 1024)
    server.route(
      "/firehose",
      .stream(contentType: "application/octet-stream") { writer in
        while writer.bytesWritten < 16 << 20, writer.write(block) {}
      })
    let subscriber = TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>(initialDemand: .max(2))
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    URLSession.shared.bytesPublisher(
      for: URLRequest(url: server.url("/firehose")), transport: .urlSession(bufferLimit: 1 << 20)
    ).subscribe(subscriber)
    wait(for: [done], timeout: 20)
    XCTAssertEqual(subscriber.completion, .failure(.bufferLimitExceeded(1 << 20)))
    XCTAssertLessThanOrEqual(subscriber.values.count, 2)
  }

  func test_urlSessionTransport_cancel_closesTheConnection() {
    let started = Shared(false)
    server.route(
      "/slow",
      .stream(contentType: "text/plain") { writer in
        writer.write("one")
        started.value = true
        _ = writer.waitForClientToClose(timeout: 10)
      })
    let subscriber = TestSubscriber<HTTPBytesPublisher.Part, HTTPStreamError>(strictCancellation: false)
    URLSession.shared.bytesPublisher(for: URLRequest(url: server.url("/slow")), transport: .urlSession())
      .subscribe(subscriber)
    XCTAssertTrue(eventually { started.value && subscriber.values.count == 2 })
    subscriber.cancel()
    XCTAssertTrue(eventually(timeout: 3) { server.closedBeforeAnswer == ["/slow"] }, "the server saw the close")
  }
}
