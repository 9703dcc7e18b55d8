import Confluence
import ConfluenceTesting
import XCTest

/// `zip` and `combineLatest` over three and four upstreams: one subscription over all of
/// them, keeping the two-upstream rules on every side (demand to every upstream, the
/// sender's share of added demand, which sides a completion cancels, a failure from any side).
final class FanInArityTests: XCTestCase {
  private typealias Upstream = DetachedUpstream<Int, TestError>

  private func fourUpstreams() -> [Upstream] { (0..<4).map { _ in Upstream() } }

  // MARK: zip

  func test_zip4_pairsOneValueOfEachSide_inArrivalOrder() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>()
    u[0].zip(u[1], u[2], u[3]).subscribe(subscriber)
    for upstream in u { upstream.attach() }
    _ = u[3].send(40)
    _ = u[3].send(41)
    _ = u[0].send(10)
    _ = u[2].send(30)
    _ = u[1].send(20)
    XCTAssertEqual(subscriber.values.map { [$0.0, $0.1, $0.2, $0.3] }, [[10, 20, 30, 40]])
    _ = u[1].send(21)
    _ = u[2].send(31)
    XCTAssertEqual(subscriber.values.count, 1, "waits for the first side")
    _ = u[0].send(11)
    XCTAssertEqual(subscriber.values.map { [$0.0, $0.1, $0.2, $0.3] }, [[10, 20, 30, 40], [11, 21, 31, 41]])
    XCTAssertEqual(subscriber.eventDescriptions.first, "subscription(Zip)")
  }

  func test_zip4_forwardsDemandToEveryUpstream() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>(initialDemand: .max(2))
    u[0].zip(u[1], u[2], u[3]).subscribe(subscriber)
    let subscriptions = u.map { $0.attach() }
    subscriber.request(.max(3))
    for (index, subscription) in subscriptions.enumerated() {
      XCTAssertEqual(subscription.events, [.requested(.max(2)), .requested(.max(3))], "upstream \(index)")
    }
  }

  func test_zip4_demandAddedDuringADelivery_isReturnedToTheSender_andRequestedFromTheOthers() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>(initialDemand: .max(1))
    subscriber.onValue = { _ in
      subscriber.request(.max(5))
      return .max(2)
    }
    u[0].zip(u[1], u[2], u[3]).subscribe(subscriber)
    let subscriptions = u.map { $0.attach() }
    for index in 0..<3 { XCTAssertEqual(u[index].send(index), .none) }
    XCTAssertEqual(u[3].send(3), .max(7), "the fourth side set the delivery off: it is owed what was added")
    for index in 0..<3 {
      XCTAssertEqual(
        subscriptions[index].events, [.requested(.max(1)), .requested(.max(5)), .requested(.max(2))],
        "upstream \(index)")
    }
    XCTAssertEqual(subscriptions[3].events, [.requested(.max(1))])
  }

  func test_zip4_aSideFinishedAndDrained_completes_cancellingOnlyTheSidesStillRunning() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>()
    u[0].zip(u[1], u[2], u[3]).subscribe(subscriber)
    let subscriptions = u.map { $0.attach() }
    _ = u[2].send(30)
    u[2].send(completion: .finished)
    XCTAssertNil(subscriber.completion, "the third side's value may still be paired")
    _ = u[0].send(10)
    _ = u[1].send(20)
    _ = u[3].send(40)
    XCTAssertEqual(subscriber.values.count, 1)
    XCTAssertEqual(subscriber.completion, .finished, "the finished side is drained")
    XCTAssertEqual(subscriptions[2].events, [.requested(.unlimited)], "a side that finished is not cancelled")
    for index in [0, 1, 3] {
      XCTAssertEqual(subscriptions[index].events, [.requested(.unlimited), .cancelled], "upstream \(index)")
    }
  }

  func test_zip4_failureOfTheFourthSide_fails_andLetsGoOfEverySide() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>()
    u[0].zip(u[1], u[2], u[3]).subscribe(subscriber)
    let subscriptions = u.map { $0.attach() }
    u[3].send(completion: .failure(TestError("d")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Zip)", "completion(failure(d))"])
    // Every side still subscribed is let go of at once, the one that failed included, as
    // with two upstreams (and as the nested two-upstream form did before).
    for index in 0..<4 {
      XCTAssertEqual(subscriptions[index].events, [.requested(.unlimited), .cancelled], "upstream \(index)")
    }
  }

  func test_zip3_cancel_cancelsEveryUpstream_andDeliversNothingMore() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int), TestError>()
    u[0].zip(u[1], u[2]).subscribe(subscriber)
    let subscriptions = u.prefix(3).map { $0.attach() }
    _ = u[0].send(1)
    _ = u[1].send(2)
    subscriber.cancel()
    _ = u[2].send(3)
    XCTAssertEqual(subscriber.values.count, 0)
    for (index, subscription) in subscriptions.enumerated() {
      XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled], "upstream \(index)")
    }
  }

  func test_zip4_upstreamsSendingBeyondDemand_getOneTupleThrough() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>(initialDemand: .max(1))
    var beyondDemand: [String] = []
    subscriber.onViolation = { beyondDemand.append($0) }
    u[0].zip(u[1], u[2], u[3]).subscribe(subscriber)
    for upstream in u { upstream.attach() }
    for round in 1...3 {
      for upstream in u { _ = upstream.send(round) }
    }
    XCTAssertEqual(subscriber.values.map(\.0), [1, 2], "as two upstreams: one tuple beyond demand, then none")
    XCTAssertEqual(beyondDemand.count, 1, "the second tuple was beyond demand")
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values.map(\.0), [1, 2, 3])
  }

  // MARK: combineLatest

  func test_combineLatest4_emitsOnceEverySideHasAValue_thenOnEveryChange() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>()
    u[0].combineLatest(u[1], u[2], u[3]).subscribe(subscriber)
    for upstream in u { upstream.attach() }
    _ = u[0].send(10)
    _ = u[1].send(20)
    _ = u[2].send(30)
    _ = u[0].send(11)
    XCTAssertEqual(subscriber.values.count, 0, "the fourth side has sent nothing yet")
    _ = u[3].send(40)
    _ = u[2].send(31)
    _ = u[3].send(41)
    XCTAssertEqual(
      subscriber.values.map { [$0.0, $0.1, $0.2, $0.3] },
      [[11, 20, 30, 40], [11, 20, 31, 40], [11, 20, 31, 41]])
    XCTAssertEqual(subscriber.eventDescriptions.first, "subscription(CombineLatest)")
  }

  func test_combineLatest4_finishesOnlyWhenEverySideFinished() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>()
    u[0].combineLatest(u[1], u[2], u[3]).subscribe(subscriber)
    let subscriptions = u.map { $0.attach() }
    for (index, upstream) in u.enumerated() { _ = upstream.send(index) }
    for index in 0..<3 {
      u[index].send(completion: .finished)
      XCTAssertNil(subscriber.completion, "after upstream \(index)")
    }
    _ = u[3].send(33)
    XCTAssertEqual(subscriber.values.map(\.3), [3, 33], "the last side keeps combining with the others' latest")
    u[3].send(completion: .finished)
    XCTAssertEqual(subscriber.completion, .finished)
    for subscription in subscriptions { XCTAssertEqual(subscription.events, [.requested(.unlimited)]) }
  }

  func test_combineLatest3_failureOfTheThirdSide_failsAndCancelsTheOthers() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int), TestError>()
    u[0].combineLatest(u[1], u[2]).subscribe(subscriber)
    let subscriptions = u.prefix(3).map { $0.attach() }
    u[1].send(completion: .finished)
    u[2].send(completion: .failure(TestError("c")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(CombineLatest)", "completion(failure(c))"])
    XCTAssertEqual(subscriptions[0].events, [.requested(.unlimited), .cancelled])
    XCTAssertEqual(subscriptions[1].events, [.requested(.unlimited)], "finished already: released, not cancelled")
    XCTAssertEqual(subscriptions[2].events, [.requested(.unlimited), .cancelled], "as with two upstreams")
  }

  func test_combineLatest4_noDemand_remembersTheLatest_andSendsItOnRequest() {
    let u = fourUpstreams()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>(initialDemand: .none)
    u[0].combineLatest(u[1], u[2], u[3]).subscribe(subscriber)
    for upstream in u { upstream.attach() }
    for (index, upstream) in u.enumerated() { _ = upstream.send(index) }
    _ = u[1].send(100)
    _ = u[3].send(300)
    XCTAssertEqual(subscriber.values.count, 0)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values.map { [$0.0, $0.1, $0.2, $0.3] }, [[0, 100, 2, 300]])
  }
}
