import Confluence
import ConfluenceTesting
import Foundation
import XCTest

/// Rules Apple gives the debugging and coding operators (`print`, `handleEvents`,
/// `breakpoint`, `assertNoFailure`, `encode`, `decode`) and `drop(untilOutputFrom:)` at the
/// edges of a subscription.
final class DebuggingFamilyRulesTests: XCTestCase {
  func test_print_printsEveryEventAndCall_passesEveryEvent_cancelsUpstreamOnce() {
    let collector = LineCollector()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    subscriber.onViolation = { _ in }
    var print: Subscription?
    subscriber.onSubscription = { print = $0 }
    upstream.print(to: collector).subscribe(subscriber)
    let first = upstream.attach()
    let extra = upstream.attach()
    XCTAssertEqual(extra.events, [.cancelled], "a second subscription is printed, then cancelled")
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(TestError("late")))
    _ = upstream.send(5)
    print?.cancel()
    print?.cancel()
    print?.request(.max(1))
    XCTAssertEqual(
      collector.lines,
      [
        "receive subscription: (Recording)", "receive subscription: (Recording)", "receive finished",
        "receive error: (late)", "receive value: (5)", "receive cancel", "receive cancel", "request max: (1)",
      ])
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(Print)", "completion(finished)", "completion(failure(late))", "value(5)"])
    XCTAssertEqual(first.events, [], "released at the completion: neither cancel nor request reach it")
    XCTAssertTrue(Mirror(reflecting: print!).children.isEmpty)
  }

  func test_handleEvents_closuresSeeEventsUntilTheEnd_eventsAlwaysPass() {
    var seen: [String] = []
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2))
    subscriber.onViolation = { _ in }
    upstream.handleEvents(
      receiveSubscription: { _ in seen.append("subscription") }, receiveOutput: { seen.append("output \($0)") },
      receiveCompletion: { _ in seen.append("completion") }, receiveCancel: { seen.append("cancel") },
      receiveRequest: { seen.append("request \($0)") }
    ).subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(1)
    upstream.send(completion: .finished)
    upstream.send(completion: .finished)
    _ = upstream.send(2)
    subscriber.cancel()
    XCTAssertEqual(seen, ["subscription", "request max(1)", "output 1", "request max(2)", "completion"])
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(HandleEvents)", "value(1)", "completion(finished)", "completion(finished)", "value(2)"])
  }

  func test_handleEvents_cancelBeforeTheSubscription_isReportedButForgotten() {
    var seen: [String] = []
    let upstream = DetachedUpstream<Int, Never>()
    upstream.handleEvents(receiveCancel: { seen.append("cancel") }).subscribe(TestSubscriber<Int, Never>())
    upstream.operatorSubscription?.cancel()
    let subscription = upstream.attach()
    XCTAssertEqual(seen, ["cancel"])
    XCTAssertEqual(subscription.events, [.requested(.unlimited)])
  }

  func test_breakpoint_isARelay_everyEventReachesTheClosuresAndTheDownstream() {
    var completions = 0
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onViolation = { _ in }
    upstream.breakpoint(receiveCompletion: { _ in
      completions += 1; return false
    }).subscribe(subscriber)
    XCTAssertEqual(String(describing: upstream.operatorSubscriber), "Breakpoint")
    upstream.attach()
    upstream.send(completion: .finished)
    upstream.send(completion: .finished)
    upstream.attach()
    XCTAssertEqual(completions, 2)
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(Recording)", "completion(finished)", "completion(finished)", "subscription(Recording)"])
  }

  func test_assertNoFailure_mirrorShowsWhereItWasWritten() {
    let upstream = DetachedUpstream<Int, TestError>()
    upstream.assertNoFailure("P", file: "F.swift", line: 7).subscribe(TestSubscriber<Int, Never>())
    let children = Mirror(reflecting: upstream.operatorSubscriber).children.map { "\($0.label!)=\($0.value)" }
    XCTAssertEqual(children, ["file=F.swift", "line=7", "prefix=P"])
  }

  func test_coding_valuesBeforeTheSubscriptionAreCoded_afterTheFinishNothing() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Data, any Error>(demandPerValue: .max(1))
    subscriber.onViolation = { _ in }
    upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
    XCTAssertEqual(upstream.send(1), .max(1), "coded before the subscription")
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.send(2), .none)
    upstream.attach()
    XCTAssertEqual(subscriber.values, [Data("1".utf8)])
    let labels = Mirror(reflecting: upstream.operatorSubscriber).children.map(\.label)
    XCTAssertEqual(labels, ["downstream", "finished", "upstreamSubscription"])
  }

  func test_dropUntilOutput_downstreamFirst_otherAskedForOne_upstreamForTheDemandSoFar() {
    let upstream = DetachedUpstream<Int, Never>()
    let other = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(DropUntilOutput)"])
    let otherSubscription = other.attach()
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
    let upstreamSubscription = upstream.attach()
    XCTAssertEqual(upstreamSubscription.events, [.requested(.max(2))])
    XCTAssertEqual(upstream.send(1), .none)
    _ = other.send(0)
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))], "released, not cancelled")
    let next = other.attach()
    XCTAssertEqual(next.events, [.requested(.max(1))], "after the trigger a new one is accepted")
    _ = upstream.send(2)
    XCTAssertEqual(subscriber.values, [2])
    XCTAssertEqual(
      (other.operatorSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier,
      subscriber.subscription?.combineIdentifier, "the other's subscriber shares the operator's identity")
  }
}
