import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

/// One rule over every operator with more than one source: once the downstream has
/// completed because of one source, an event from another source — one that was already on
/// its way on another thread when the operator cancelled that source — reaches nobody. The
/// downstream receives one completion, whichever source ends first.
///
/// A `DetachedUpstream` ignores cancels, so sending to it after the operator cancelled it
/// plays exactly that in-flight event, on one thread, deterministically. (The threaded
/// pipelines of `ThreadedPipelineStressTests` found the `prefix(untilOutputFrom:)` case:
/// upstream finished while the other's value was on its way; it is pinned by
/// `PrefixUntilOutputTests.test_theOthersValueAfterUpstreamCompleted_goesNowhere`.)
///
/// Apple's `drop(untilOutputFrom:)` is the recorded exception: it passes on every completion,
/// from either source, each time (the conformance suite records two finishes for an other
/// that finishes and an upstream that finishes), so Confluence's does too — pinned last.
final class InFlightAfterCompletionRulesTests: XCTestCase {
  private typealias Source = DetachedUpstream<Int, TestError>

  /// How each member is built from its two sources, and how the second source comes to be
  /// subscribed (for `flatMap` and `switchToLatest` the first source's value brings it).
  private struct Member {
    let name: String
    let make: (Source, Source) -> AnyPublisher<Int, TestError>
    var subscribeSecond: (Source) -> Void = { _ in }
  }

  private let members: [Member] = [
    Member(name: "merge", make: { $0.merge(with: $1).eraseToAnyPublisher() }),
    Member(name: "combineLatest", make: { $0.combineLatest($1, +).eraseToAnyPublisher() }),
    Member(name: "zip", make: { $0.zip($1, +).eraseToAnyPublisher() }),
    Member(name: "withLatestFrom", make: { $0.withLatestFrom($1, resultSelector: +).eraseToAnyPublisher() }),
    Member(
      name: "flatMap", make: { first, second in first.flatMap { _ in second }.eraseToAnyPublisher() },
      subscribeSecond: { $0.send(1) }),
    Member(
      name: "switchToLatest",
      make: { first, second in first.map { _ in second }.switchToLatest().eraseToAnyPublisher() },
      subscribeSecond: { $0.send(1) }),
  ]

  /// Each member's two sources, subscribed, with unlimited demand downstream.
  private func start(_ member: Member) -> (first: Source, second: Source, subscriber: TestSubscriber<Int, TestError>) {
    let first = Source()
    let second = Source()
    let subscriber = TestSubscriber<Int, TestError>()
    member.make(first, second).subscribe(subscriber)
    first.attach()
    member.subscribeSecond(first)
    second.attach()
    return (first, second, subscriber)
  }

  /// Either source fails first; the other's value, failure and finish after it go nowhere.
  func test_oneSourceFails_thenTheOthersEventsReachNobody() {
    for member in members {
      for firstFails in [true, false] {
        let (first, second, subscriber) = start(member)
        let (failing, other) = firstFails ? (first, second) : (second, first)
        let name = "\(member.name), \(firstFails ? "first" : "second") source fails first"
        failing.send(completion: .failure(TestError("failing")))
        XCTAssertEqual(other.send(5), .none, name)
        other.send(completion: .failure(TestError("other")))
        other.send(completion: .finished)
        XCTAssertEqual(Array(subscriber.events.dropFirst()), [.completion(.failure(TestError("failing")))], name)
      }
    }
  }

  /// The recorded exception: Apple's `drop(untilOutputFrom:)` passes on both completions.
  func test_dropUntilOutput_passesOnACompletionFromEachSource_asApplesDoes() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<Int, TestError>()
    var violations: [String] = []
    subscriber.onViolation = { violations.append($0) }
    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    other.attach()
    upstream.attach()
    other.send(completion: .finished)
    upstream.send(completion: .finished)
    XCTAssertEqual(
      subscriber.events, [.subscription("DropUntilOutput"), .completion(.finished), .completion(.finished)])
    XCTAssertEqual(violations, ["received a second completion (finished)"])
  }
}
