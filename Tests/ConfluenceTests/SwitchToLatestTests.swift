import Confluence
import ConfluenceTesting
import XCTest

final class SwitchToLatestTests: XCTestCase {
  func test_onlyTheLatestInnerPublisherIsForwarded() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    outer.switchToLatest().subscribe(subscriber)
    XCTAssertEqual(outer.requested, [.unlimited])
    outer.send(first)
    first.send(1)
    outer.send(second)
    XCTAssertEqual(first.cancels, 1, "the previous inner publisher is cancelled")
    first.send(2)
    second.send(3)
    XCTAssertEqual(subscriber.events, [.subscription("SwitchToLatest"), .value(1), .value(3)])
  }

  func test_unusedDemandCarriesOverToTheNextInner() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
    outer.switchToLatest().subscribe(subscriber)
    outer.send(first)
    XCTAssertEqual(first.requested, [.max(3)])
    first.send(1)
    outer.send(second)
    XCTAssertEqual(second.requested, [.max(2)])
    subscriber.request(.max(4))
    XCTAssertEqual(second.requested, [.max(2), .max(4)])
  }

  func test_finishesAfterUpstreamAndCurrentInnerFinish() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    outer.switchToLatest().subscribe(subscriber)
    outer.send(inner)
    outer.finish()
    XCTAssertNil(subscriber.completion)
    inner.send(5)
    inner.finish()
    XCTAssertEqual(subscriber.events, [.subscription("SwitchToLatest"), .value(5), .completion(.finished)])
  }

  func test_innerFinishing_doesNotFinishWhileUpstreamIsLive() {
    let subscriber = TestSubscriber<Int, Never>()
    let outer = ManualPublisher<Just<Int>, Never>()
    outer.switchToLatest().subscribe(subscriber)
    outer.send(Just(1))
    outer.send(Just(2))
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertNil(subscriber.completion)
    outer.finish()
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_innerFailure_failsAndCancelsUpstream() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    outer.switchToLatest().subscribe(subscriber)
    outer.send(inner)
    inner.fail(TestError("inner"))
    XCTAssertEqual(subscriber.completion, .failure(TestError("inner")))
    XCTAssertEqual(outer.cancels, 1)
  }

  func test_staleInnerFailure_isIgnored() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    outer.switchToLatest().subscribe(subscriber)
    outer.send(first)
    outer.send(second)
    first.fail(TestError("stale"))
    XCTAssertNil(subscriber.completion)
  }

  func test_upstreamFailure_cancelsInner() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    outer.switchToLatest().subscribe(subscriber)
    outer.send(inner)
    outer.fail(TestError("outer"))
    XCTAssertEqual(subscriber.completion, .failure(TestError("outer")))
    XCTAssertEqual(inner.cancels, 1)
  }

  func test_cancelInsideReceive() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    outer.switchToLatest().subscribe(subscriber)
    outer.send(inner)
    inner.send(1)
    inner.send(2)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(inner.cancels, 1)
    XCTAssertEqual(outer.cancels, 1)
  }

  func test_synchronousInnerSequences() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.map { n in [n, n * 10].publisher }.switchToLatest().subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 10, 2, 20])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  // MARK: Just inners (handed over without a subscription when they can deliver at once)

  func test_justInner_withoutDemand_waitsForARequest() {
    for erased in [false, true] {
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
      let outer = PassthroughSubject<Int, Never>()
      if erased {
        outer.map { Just($0).eraseToAnyPublisher() }.switchToLatest().subscribe(subscriber)
      } else {
        outer.map { Just($0) }.switchToLatest().subscribe(subscriber)
      }
      outer.send(1)
      outer.send(2)
      XCTAssertEqual(subscriber.values, [1], "erased: \(erased): the second Just waits for demand")
      outer.send(completion: .finished)
      XCTAssertNil(subscriber.completion, "erased: \(erased): the waiting Just holds the completion back")
      subscriber.request(.max(1))
      XCTAssertEqual(
        subscriber.events, [.subscription("SwitchToLatest"), .value(1), .value(2), .completion(.finished)],
        "erased: \(erased)")
    }
  }

  /// An inner publisher that calls its subscriber directly, sending from inside a delivery:
  /// the values wait in the operator's own queue (a subject would queue them itself) and
  /// follow the current one in order.
  func test_innerValuesSentDuringDelivery_waitAndFollowInOrder() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { value in
      if value == 1 {
        inner.send(2)
        inner.send(3)
      }
      return .none
    }
    outer.switchToLatest().subscribe(subscriber)
    outer.send(inner)
    inner.send(1)
    inner.send(4)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4])
  }

  /// A value accepted from the latest inner is delivered even when a newer inner arrives
  /// before its turn, ahead of the newer one's values.
  func test_valueWaitingWhenANewerInnerArrives_isStillDelivered_first() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { value in
      if value == 1 {
        first.send(2)
        outer.send(second)
        second.send(3)
      }
      return .none
    }
    outer.switchToLatest().subscribe(subscriber)
    outer.send(first)
    first.send(1)
    XCTAssertEqual(first.cancels, 1)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
  }

  /// The last inner finishing (upstream already finished) during a delivery, with a value
  /// waiting: the completion waits too, and follows the value.
  func test_finishDuringDelivery_withAValueWaiting_followsTheValue() {
    let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { value in
      if value == 1 {
        inner.send(2)
        inner.finish()
      }
      return .none
    }
    outer.switchToLatest().subscribe(subscriber)
    outer.send(inner)
    outer.finish()
    inner.send(1)
    XCTAssertEqual(
      subscriber.events, [.subscription("SwitchToLatest"), .value(1), .value(2), .completion(.finished)])
  }

  func test_justInner_sentDuringDelivery_isDeliveredAfterTheCurrentValue() {
    for erased in [false, true] {
      let subscriber = TestSubscriber<Int, Never>()
      let outer = PassthroughSubject<Int, Never>()
      subscriber.onValue = { value in
        if value == 1 { outer.send(2) }
        return .none
      }
      if erased {
        outer.map { Just($0).eraseToAnyPublisher() }.switchToLatest().subscribe(subscriber)
      } else {
        outer.map { Just($0) }.switchToLatest().subscribe(subscriber)
      }
      outer.send(1)
      outer.send(3)
      outer.send(completion: .finished)
      XCTAssertEqual(
        subscriber.events,
        [.subscription("SwitchToLatest"), .value(1), .value(2), .value(3), .completion(.finished)], "erased: \(erased)")
    }
  }

  /// Runs `body` with a `Just` inner handed over at once and with the same inner erased (which
  /// is subscribed to), and checks that both give `expected`. The outer publisher calls its
  /// subscriber directly, so what `body` sends from inside a delivery arrives inside it.
  private func assertJustInnersGive(
    _ expected: [TestSubscriber<Int, TestError>.Event],
    initialDemand: Subscribers.Demand = .unlimited,
    _ body: (_ outer: ManualPublisher<Int, TestError>, _ subscriber: TestSubscriber<Int, TestError>) -> Void,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    for erased in [false, true] {
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
      let outer = ManualPublisher<Int, TestError>()
      if erased {
        outer.map { Just($0).setFailureType(to: TestError.self).eraseToAnyPublisher() }.switchToLatest()
          .subscribe(subscriber)
      } else {
        outer.map { Just($0) }.switchToLatest().subscribe(subscriber)
      }
      body(outer, subscriber)
      XCTAssertEqual(subscriber.events, expected, "erased: \(erased)", file: file, line: line)
    }
  }

  func test_justInner_upstreamFinishingDuringDelivery_finishesAfterTheValue() {
    assertJustInnersGive([.subscription("SwitchToLatest"), .value(1), .completion(.finished)]) { outer, subscriber in
      subscriber.onValue = { _ in
        outer.finish()
        return .none
      }
      outer.send(1)
    }
  }

  func test_justInner_upstreamFailingDuringDelivery_failsAfterTheValue() {
    assertJustInnersGive([.subscription("SwitchToLatest"), .value(1), .completion(.failure(TestError()))]) {
      outer, subscriber in
      subscriber.onValue = { _ in
        outer.fail(TestError())
        return .none
      }
      outer.send(1)
      outer.send(2)
    }
  }

  func test_justInner_demandReturnedDuringDelivery_letsTheNextJustsThrough() {
    let expected: [TestSubscriber<Int, TestError>.Event] = [
      .subscription("SwitchToLatest"), .value(1), .value(2), .value(3), .completion(.finished),
    ]
    assertJustInnersGive(expected, initialDemand: .max(1)) { outer, subscriber in
      subscriber.onValue = { _ in .max(1) }
      for value in 1...3 { outer.send(value) }
      outer.finish()
    }
  }

  func test_justInner_cancelDuringDelivery_endsEverything() {
    let subscriber = TestSubscriber<Int, Never>()
    let outer = PassthroughSubject<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    outer.map { Just($0) }.switchToLatest().subscribe(subscriber)
    outer.send(1)
    outer.send(2)
    outer.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("SwitchToLatest"), .value(1)])
  }

  func test_nestedJustSwitches_deliverEveryValueInOrder() {
    let subscriber = TestSubscriber<Int, Never>()
    let outer = PassthroughSubject<Int, Never>()
    func switched(_ upstream: some Publisher<Int, Never>, _ transform: @escaping (Int) -> Int) -> some Publisher<
      Int, Never
    > {
      upstream.map { Just(transform($0)) }.switchToLatest()
    }
    let first = switched(switched(outer, { $0 }), { $0 * 10 })
    switched(switched(switched(first, { $0 + 1 }), { $0 }), { $0 }).subscribe(subscriber)
    for value in 1...3 { outer.send(value) }
    outer.send(completion: .finished)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("SwitchToLatest"), .value(11), .value(21), .value(31), .completion(.finished)])
  }
}
