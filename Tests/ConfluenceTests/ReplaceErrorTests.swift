import Confluence
import ConfluenceTesting
import XCTest

final class ReplaceErrorTests: XCTestCase {
  func test_failure_isReplacedByOutputThenFinished_unlimitedDemand() {
    let upstream = ScriptedPublisher<String, TestError>()
    let subscriber = TestSubscriber<String, Never>()
    upstream.replaceError(with: "(replacement element)").subscribe(subscriber)
    upstream.send("a")
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(
      subscriber.events,
      [.subscription("ReplaceError"), .value("a"), .value("(replacement element)"), .completion(.finished)])
    XCTAssertEqual(upstream.requests, [.unlimited])
  }

  func test_appleExample_immediateFailure() {
    let upstream = ScriptedPublisher<String, TestError>()
    upstream.onSubscribe = { publisher, _ in publisher.send(completion: .failure(TestError())) }
    var printed: [String] = []
    _ =
      upstream
      .replaceError(with: "(replacement element)")
      .sink(receiveCompletion: { printed.append("\($0)") }, receiveValue: { printed.append("\($0)") })
    XCTAssertEqual(printed.joined(separator: " "), "(replacement element) finished")
  }

  func test_valuesAndFinish_passThrough() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.replaceError(with: 0).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceError"), .value(1), .value(2), .completion(.finished)])
  }

  func test_waitsForDemand_whenNoneOutstanding_max1() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.replaceError(with: -1).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceError"), .value(1)])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceError"), .value(1), .value(-1), .completion(.finished)])
    XCTAssertEqual(upstream.requests, [.max(1)], "a request after the failure is not forwarded")
  }

  func test_usesDemandReturnedFromReceive() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    upstream.replaceError(with: -1).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.values, [1, -1])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_noDemand_holdsReplacement() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.replaceError(with: 9).subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceError")])
    subscriber.request(.max(3))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceError"), .value(9), .completion(.finished)])
  }

  func test_cancelWhileHolding_sendsNothing() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.replaceError(with: 9).subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 0)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceError")])
  }

  func test_cancelBeforeFailure_cancelsUpstream() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.replaceError(with: 9).subscribe(subscriber)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceError")])
  }

  func test_cancelInsideReceiveOfReplacement_skipsFinished() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    upstream.replaceError(with: 9).subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceError"), .value(9)])
  }

  func test_completion_releasesTheSubscription() {
    let upstream = ScriptedPublisher<Int, TestError>()
    var subscriber: TestSubscriber<Int, Never>? = TestSubscriber()
    upstream.replaceError(with: 0).subscribe(subscriber!)
    weak let subscription = subscriber?.subscription as AnyObject?
    upstream.send(completion: .failure(TestError()))
    subscriber = nil
    XCTAssertNil(subscription)
  }

  func test_equatable() {
    XCTAssertEqual(
      Publishers.ReplaceError(upstream: Just(1), output: 2), Publishers.ReplaceError(upstream: Just(1), output: 2))
    XCTAssertNotEqual(
      Publishers.ReplaceError(upstream: Just(1), output: 2), Publishers.ReplaceError(upstream: Just(1), output: 3))
  }
}
