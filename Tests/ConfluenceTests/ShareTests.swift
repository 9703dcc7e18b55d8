import Confluence
import ConfluenceTesting
import XCTest

final class ShareTests: XCTestCase {
  func test_subscribesUpstreamOnce_forAllSubscribers() {
    let upstream = ManualPublisher<Int, TestError>()
    let shared = upstream.share()
    let first = TestSubscriber<Int, TestError>()
    let second = TestSubscriber<Int, TestError>()
    shared.subscribe(first)
    shared.subscribe(second)
    XCTAssertEqual(upstream.requested, [.unlimited])
    upstream.send(1)
    upstream.fail(TestError("x"))
    // share() is multicast + autoconnect: the relay shows the subject's subscription.
    XCTAssertEqual(first.eventDescriptions, ["subscription(Multicast)", "value(1)", "completion(failure(x))"])
    XCTAssertEqual(second.eventDescriptions, first.eventDescriptions)
  }

  func test_lateSubscriber_receivesOnlyLaterValues() {
    let upstream = ManualPublisher<Int, TestError>()
    let shared = upstream.share()
    let first = TestSubscriber<Int, TestError>()
    shared.subscribe(first)
    upstream.send(1)
    let late = TestSubscriber<Int, TestError>()
    shared.subscribe(late)
    upstream.send(2)
    XCTAssertEqual(first.values, [1, 2])
    XCTAssertEqual(late.values, [2])
  }

  func test_isAClass_equalByIdentity() {
    let shared = [1].publisher.share()
    let copy = shared
    XCTAssertEqual(shared, copy)
    XCTAssertNotEqual(shared, [1].publisher.share())
  }

  func test_allSubscribersCancelling_cancelsUpstream_andFreesThem() {
    let upstream = ManualPublisher<Int, TestError>()
    let shared = upstream.share()
    weak var weakSubscriber: TestSubscriber<Int, TestError>?
    do {
      let subscriber = TestSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      shared.subscribe(subscriber)
      subscriber.cancel()
    }
    XCTAssertEqual(upstream.cancels, 1)
    upstream.releaseSubscriber()
    XCTAssertNil(weakSubscriber)
  }
}
