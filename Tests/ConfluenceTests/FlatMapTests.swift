import Foundation
import Confluence
import ConfluenceTesting
import XCTest

final class FlatMapTests: XCTestCase {
  func test_flattensInnerPublishers_unlimited() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...3).publisher.flatMap { Just($0 * 10) }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("FlatMap"), .value(10), .value(20), .value(30), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_innerSequences_areConcatenatedWhenSynchronous() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.flatMap { n in [n, n * 10, n * 100].publisher }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 10, 100, 2, 20, 200])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_finiteDemand_buffersAtMostOnePerInner_andResumesOnRequest() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    [1, 2].publisher.flatMap { n in [n, n * 10, n * 100].publisher }.subscribe(subscriber)
    // The first inner publisher is asked for one value at a time: 1 and 10 go out, 100
    // waits in the buffer, then the second inner's first value (2) waits behind it.
    XCTAssertEqual(subscriber.values, [1, 10])
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(3))
    XCTAssertEqual(subscriber.values, [1, 10, 100, 2, 20], "buffered values go out in arrival order")
    subscriber.request(.max(10))
    XCTAssertEqual(subscriber.values, [1, 10, 100, 2, 20, 200])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_noDemand_deliversNothingUntilRequested() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...3).publisher.flatMap { Just($0) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_maxPublishers_limitsConcurrentInnerSubscriptions() {
    let inners = (0..<3).map { _ in ManualPublisher<Int, TestError>() }
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMap(maxPublishers: .max(2)) { inners[$0] }.subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(2)])
    upstream.send(0)
    upstream.send(1)
    XCTAssertEqual(inners[0].requested, [.unlimited])
    inners[0].send(7)
    inners[1].send(8)
    inners[0].finish()
    XCTAssertEqual(upstream.requested, [.max(2), .max(1)], "one more upstream value once an inner finished")
    upstream.send(2)
    inners[2].send(9)
    upstream.finish()
    inners[1].finish()
    XCTAssertNil(subscriber.completion, "an inner publisher is still live")
    inners[2].finish()
    XCTAssertEqual(subscriber.values, [7, 8, 9])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_innerFailure_cancelsEverythingAndFails() {
    let inners = (0..<2).map { _ in ManualPublisher<Int, TestError>() }
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMap { inners[$0] }.subscribe(subscriber)
    upstream.send(0)
    upstream.send(1)
    inners[1].fail(TestError("inner"))
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap"), .completion(.failure(TestError("inner")))])
    XCTAssertEqual(inners[0].cancels, 1)
    XCTAssertEqual(upstream.cancels, 0, "as Apple's: released, not cancelled")
    inners[0].send(5)
    XCTAssertEqual(subscriber.values, [], "nothing after the failure")
  }

  func test_upstreamFailure_cancelsInnersAndFails() {
    let inner = ManualPublisher<Int, TestError>()
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMap { _ in inner }.subscribe(subscriber)
    upstream.send(0)
    upstream.fail(TestError("up"))
    XCTAssertEqual(subscriber.completion, .failure(TestError("up")))
    XCTAssertEqual(inner.cancels, 1)
  }

  func test_upstreamFinishes_waitsForInners() {
    let inner = ManualPublisher<Int, TestError>()
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMap { _ in inner }.subscribe(subscriber)
    upstream.send(0)
    upstream.finish()
    XCTAssertNil(subscriber.completion)
    inner.send(1)
    inner.finish()
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap"), .value(1), .completion(.finished)])
  }

  func test_cancelInsideReceive_cancelsUpstreamAndInners() {
    let inner = ManualPublisher<Int, TestError>()
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    upstream.flatMap { _ in inner }.subscribe(subscriber)
    upstream.send(0)
    inner.send(1)
    inner.send(2)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(inner.cancels, 1)
    XCTAssertEqual(upstream.cancels, 1)
  }

  func test_cancel_freesTransformAndInners() {
    let tracker = LifetimeTracker()
    let upstream = ManualPublisher<Int, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    do {
      let probe = tracker.make()
      upstream.flatMap { _ in
        _ = probe; return inner
      }.subscribe(subscriber)
    }
    upstream.send(0)
    var subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
    upstream.releaseSubscriber()
    inner.releaseSubscriber()
    assertReleased(&subscription)
  }

  func test_completion_freesTheChain() {
    weak var weakSubscription: AnyObject?
    do {
      let subscriber = TestSubscriber<Int, Never>()
      (1...3).publisher.flatMap { Just($0) }.subscribe(subscriber)
      XCTAssertEqual(subscriber.completion, .finished)
      weakSubscription = subscriber.subscription as AnyObject?
    }
    XCTAssertNil(weakSubscription)
  }

  func test_concurrentInnerPublishers_deliverSerially() {
    let inners = (0..<4).map { _ in ManualPublisher<Int, Never>() }
    let subscriber = TestSubscriber<Int, Never>()
    let concurrency = ConcurrencyProbe()
    subscriber.onValue = { _ in
      concurrency.enter(); concurrency.leave(); return .none
    }
    (0..<4).publisher.flatMap { inners[$0] }.subscribe(subscriber)
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      for value in 0..<500 { inners[index].send(index * 1000 + value) }
      inners[index].finish()
    }
    XCTAssertEqual(subscriber.values.count, 2000)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(concurrency.maximum, 1, "downstream never receives two values at once")
    for index in 0..<4 {
      let fromInner = subscriber.values.filter { $0 / 1000 == index }
      XCTAssertEqual(fromInner, (0..<500).map { index * 1000 + $0 }, "each inner's values arrive in order")
    }
  }

  /// The first failure wins also while a delivery runs on another thread: an inner's
  /// failure waits for that delivery, and upstream's failure after it (upstream is released
  /// but not cancelled by an inner's failure) goes nowhere, as it does with no delivery
  /// running.
  func test_firstFailureWins_whileAnotherThreadDelivers() {
    // The inner sends as a publisher that does not serialise its own events would (a
    // subject holds its completion back until its own delivery returns).
    let upstream = PassthroughSubject<Int, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    subscriber.onValue = { _ in
      entered.signal()
      proceed.wait()
      return .none
    }
    upstream.flatMap { _ in inner }.subscribe(subscriber)
    upstream.send(0)
    let delivered = DispatchSemaphore(value: 0)
    let sender = Thread {
      inner.send(1)
      delivered.signal()
    }
    sender.start()
    entered.wait()
    inner.fail(TestError("inner"))
    upstream.send(completion: .failure(TestError("upstream")))
    proceed.signal()
    delivered.wait()
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(subscriber.completion, .failure(TestError("inner")))
  }

  /// A cancel reaches every live inner publisher before upstream, whether inners are live
  /// (cancelled in the same pass, inners first) or not (`Just` inners are never live between
  /// values: upstream alone is cancelled); a second cancel reaches nobody.
  func test_cancel_reachesLiveInnersFirstThenUpstream_once() {
    final class Log: @unchecked Sendable {
      var entries: [String] = []
    }
    for innersLive in [true, false] {
      let log = Log()
      let upstream = PassthroughSubject<Int, Never>()
      let inner = PassthroughSubject<Int, Never>()
      let subscriber = TestSubscriber<Int, Never>()
      let logged = upstream.handleEvents(receiveCancel: { log.entries.append("upstream") })
      if innersLive {
        logged.flatMap { _ in inner.handleEvents(receiveCancel: { log.entries.append("inner") }) }
          .subscribe(subscriber)
      } else {
        logged.flatMap { Just($0) }.subscribe(subscriber)
      }
      upstream.send(1)
      upstream.send(2)
      inner.send(10)
      subscriber.cancel()
      XCTAssertEqual(log.entries, innersLive ? ["inner", "inner", "upstream"] : ["upstream"], "\(innersLive)")
      subscriber.cancel()
      upstream.send(3)
      inner.send(11)
      XCTAssertEqual(log.entries.count, innersLive ? 3 : 1)
      XCTAssertEqual(subscriber.values, innersLive ? [10, 10] : [1, 2])
      XCTAssertNil(subscriber.completion)
    }
  }
}
