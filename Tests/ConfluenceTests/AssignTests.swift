import Confluence
import ConfluenceTesting
import XCTest

final class AssignTests: XCTestCase {
  final class Target {
    var value = 0
    var log: [String] = []
    var text = "" {
      didSet { log.append("text was set to: \(text)") }
    }
  }

  func test_assignsEveryValue() {
    let target = Target()
    let cancellable = [1, 2, 3].publisher.assign(to: \.value, on: target)
    XCTAssertEqual(target.value, 3)
    withExtendedLifetime(cancellable) {}
  }

  func test_appleExample_didSetSeesEachValue() {
    let target = Target()
    let cancellable = ["a", "b", "c"].publisher.assign(to: \.text, on: target)
    XCTAssertEqual(target.log, ["text was set to: a", "text was set to: b", "text was set to: c"])
    withExtendedLifetime(cancellable) {}
  }

  func test_requestsUnlimited_andDescription() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let target = Target()
    let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
    upstream.subscribe(assign)
    XCTAssertEqual(upstream.subscription.requests, [.unlimited])
    XCTAssertEqual(upstream.send?(5), Subscribers.Demand.none)
    XCTAssertEqual(target.value, 5)
    XCTAssertEqual(assign.description, "Assign Target.")
    XCTAssertEqual(assign.playgroundDescription as? String, "Assign Target.")
    XCTAssertTrue(assign.object === target)
    XCTAssertEqual(assign.keyPath, \Target.value)
    let children = Array(Mirror(reflecting: assign).children)
    XCTAssertEqual(children.map(\.label), ["object", "keyPath", "status"])
    XCTAssertTrue(children.first?.value as? Target === target)
    XCTAssertEqual(children[1].value as? ReferenceWritableKeyPath<Target, Int>, \Target.value)
  }

  // MARK: Apple's: only while subscribed

  func test_valueBeforeSubscription_isIgnored() {
    let target = Target()
    let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
    XCTAssertEqual(assign.receive(12), .none)
    XCTAssertEqual(target.value, 0)
  }

  func test_valueAfterCompletion_isIgnored_andLaterSubscriptionCancelled() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let target = Target()
    let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
    upstream.subscribe(assign)
    _ = upstream.send?(42)
    upstream.complete?(.finished)
    XCTAssertEqual(upstream.subscription.cancels, 0, "completion does not cancel upstream")
    XCTAssertEqual(assign.receive(100), .none)
    XCTAssertEqual(target.value, 42)
    let late = SubjectTestsUpstream<Int, Never>()
    late.subscribe(assign)
    XCTAssertEqual(late.subscription.cancels, 1)
    XCTAssertEqual(late.subscription.requests, [])
    assign.cancel()
    XCTAssertEqual(upstream.subscription.cancels, 0, "cancel after completion reaches nobody")
  }

  func test_completionBeforeSubscription_isIgnored() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let target = Target()
    let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
    assign.receive(completion: .finished)
    upstream.subscribe(assign)
    XCTAssertEqual(upstream.subscription.requests, [.unlimited])
    _ = upstream.send?(3)
    XCTAssertEqual(target.value, 3)
  }

  func test_sameSubscriptionAgain_isCancelled() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let assign = Subscribers.Assign(object: Target(), keyPath: \Target.value)
    upstream.subscribe(assign)
    assign.receive(subscription: upstream.subscription)
    XCTAssertEqual(upstream.subscription.cancels, 1)
    XCTAssertEqual(upstream.subscription.requests, [.unlimited])
  }

  func test_secondSubscription_isCancelled() {
    let first = SubjectTestsUpstream<Int, Never>()
    let second = SubjectTestsUpstream<Int, Never>()
    let assign = Subscribers.Assign(object: Target(), keyPath: \Target.value)
    first.subscribe(assign)
    second.subscribe(assign)
    XCTAssertEqual(second.subscription.cancels, 1)
    XCTAssertEqual(second.subscription.requests, [])
    XCTAssertEqual(first.subscription.cancels, 0)
  }

  func test_completion_releasesObject() {
    let subject = PassthroughSubject<Int, Never>()
    var target: Target? = Target()
    weak let weakTarget = target
    let assign = Subscribers.Assign(object: target!, keyPath: \Target.value)
    subject.subscribe(assign)
    target = nil
    subject.send(1)
    XCTAssertEqual(weakTarget?.value, 1)
    subject.send(completion: .finished)
    XCTAssertNil(weakTarget)
    XCTAssertNil(assign.object)
  }

  func test_cancel_releasesObjectAndCancelsUpstream() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    var target: Target? = Target()
    weak let weakTarget = target
    let cancellable = upstream.assign(to: \.value, on: target!)
    target = nil
    XCTAssertNotNil(weakTarget)
    cancellable.cancel()
    XCTAssertNil(weakTarget)
    XCTAssertEqual(upstream.subscription.cancels, 1)
    cancellable.cancel()
    XCTAssertEqual(upstream.subscription.cancels, 1, "cancel is idempotent")
  }

  func test_valueAfterCancel_isIgnored() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let target = Target()
    let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
    upstream.subscribe(assign)
    _ = upstream.send?(1)
    assign.cancel()
    _ = upstream.send?(2)
    XCTAssertEqual(target.value, 1)
  }

  func test_subscriptionAfterCancel_isCancelled() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let assign = Subscribers.Assign(object: Target(), keyPath: \Target.value)
    assign.cancel()
    upstream.subscribe(assign)
    XCTAssertEqual(upstream.subscription.cancels, 1)
    XCTAssertEqual(upstream.subscription.requests, [])
  }

  func test_droppingToken_cancels() {
    let subject = PassthroughSubject<Int, Never>()
    let target = Target()
    var cancellable: AnyCancellable? = subject.assign(to: \.value, on: target)
    subject.send(1)
    cancellable = nil
    subject.send(2)
    XCTAssertEqual(target.value, 1)
    withExtendedLifetime(cancellable) {}
  }
}
