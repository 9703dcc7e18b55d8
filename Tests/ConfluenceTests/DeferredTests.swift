import Confluence
import ConfluenceTesting
import XCTest

final class DeferredTests: XCTestCase {
  func test_createsPublisherPerSubscriber_onlyWhenSubscribed() {
    var created = 0
    let deferred = Deferred { () -> Just<Int> in
      created += 1
      return Just(created)
    }
    XCTAssertEqual(created, 0)
    let first = TestSubscriber<Int, Never>()
    deferred.subscribe(first)
    XCTAssertEqual(created, 1)
    let second = TestSubscriber<Int, Never>()
    deferred.subscribe(second)
    XCTAssertEqual(created, 2)
    XCTAssertEqual(first.events, [.subscription("Just"), .value(1), .completion(.finished)])
    XCTAssertEqual(second.events, [.subscription("Just"), .value(2), .completion(.finished)])
  }

  func test_passesDemandThrough_toCreatedPublisher() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Deferred { [1, 2, 3].publisher }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    subscriber.request(.max(2))
    XCTAssertEqual(
      subscriber.events, [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1), .max(2)])
  }

  func test_passesFailureThrough() {
    let subscriber = TestSubscriber<Int, TestError>()
    Deferred { Fail<Int, TestError>(error: TestError("late")) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("late")))])
  }

  func test_cancelReachesCreatedPublisher() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    Deferred { [1, 2, 3].publisher }.subscribe(subscriber)
    subscriber.cancel()
    subscriber.request(.max(5))
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]"), .value(1)])
  }

  func test_wrappingFuture_performsWorkPerSubscriber() {
    var work = 0
    let deferred = Deferred {
      Future<Int, Never> { promise in
        work += 1
        promise(.success(work))
      }
    }
    XCTAssertEqual(work, 0)
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    deferred.subscribe(first)
    deferred.subscribe(second)
    XCTAssertEqual(work, 2)
    XCTAssertEqual(first.events, [.subscription("Future"), .value(1), .completion(.finished)])
    XCTAssertEqual(second.events, [.subscription("Future"), .value(2), .completion(.finished)])
  }

  func test_createPublisher_isExposed() {
    let deferred = Deferred { Just("x") }
    XCTAssertEqual(deferred.createPublisher().output, "x")
  }
}
