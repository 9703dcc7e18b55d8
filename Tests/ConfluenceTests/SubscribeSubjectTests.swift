import Confluence
import ConfluenceTesting
import XCTest

/// `Publisher.subscribe(_:)` with a subject.
final class SubscribeSubjectTests: XCTestCase {
  func test_forwardsValuesAndCompletion_toPassthroughSubject() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    let connection = [1, 2, 3].publisher.subscribe(subject)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("PassthroughSubject"), .value(1), .value(2), .value(3), .completion(.finished)])
    withExtendedLifetime(connection) {}
  }

  func test_updatesCurrentValueSubject() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let connection = [1, 2, 3].publisher.subscribe(subject)
    XCTAssertEqual(subject.value, 3)
    withExtendedLifetime(connection) {}
  }

  func test_requestsUnlimitedFromUpstream_andForwardsFailure() {
    let upstream = SubjectTestsUpstream<Int, TestError>()
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    let connection = upstream.subscribe(subject)
    XCTAssertEqual(upstream.subscription.requests, [.unlimited])
    XCTAssertEqual(upstream.send?(1), Subscribers.Demand.none)
    upstream.complete?(.failure(TestError("upstream")))
    XCTAssertEqual(
      subscriber.events,
      [.subscription("PassthroughSubject"), .value(1), .completion(.failure(TestError("upstream")))])
    withExtendedLifetime(connection) {}
  }

  func test_cancel_cancelsUpstreamAndStopsForwarding() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    let connection = upstream.subscribe(subject)
    _ = upstream.send?(1)
    connection.cancel()
    XCTAssertEqual(upstream.subscription.cancels, 1)
    _ = upstream.send?(2)  // a late value from an upstream that ignores cancel
    XCTAssertEqual(subscriber.values, [1])
    connection.cancel()
    XCTAssertEqual(upstream.subscription.cancels, 1, "cancel is idempotent")
  }

  func test_droppingTheToken_releasesTheSubject() {
    let upstream = PassthroughSubject<Int, Never>()
    var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
    weak let weakSubject = subject
    var connection: AnyCancellable? = upstream.subscribe(subject!)
    subject = nil
    XCTAssertNotNil(weakSubject, "the connection keeps the subject")
    connection = nil
    XCTAssertNil(weakSubject)
    withExtendedLifetime(connection) {}
  }

  func test_completion_releasesTheSubject() {
    let upstream = PassthroughSubject<Int, Never>()
    var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
    weak let weakSubject = subject
    let connection = upstream.subscribe(subject!)
    subject = nil
    upstream.send(completion: .finished)
    XCTAssertNil(weakSubject)
    withExtendedLifetime(connection) {}
  }

  func test_chainOfSubjects() {
    let first = PassthroughSubject<String, Never>()
    let second = CurrentValueSubject<String, Never>("start")
    var received: [String] = []
    let printer = second.sink { received.append($0) }
    let connection = first.subscribe(second)
    first.send("a")
    first.send("b")
    XCTAssertEqual(received, ["start", "a", "b"])
    withExtendedLifetime((printer, connection)) {}
  }
}
