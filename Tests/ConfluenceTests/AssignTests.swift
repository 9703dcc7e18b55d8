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
    XCTAssertEqual(assign.description, "Assign")
    XCTAssertEqual(assign.playgroundDescription as? String, "Assign")
    XCTAssertTrue(assign.object === target)
    XCTAssertEqual(assign.keyPath, \Target.value)
    XCTAssertEqual(Mirror(reflecting: assign).children.map(\.label), ["object", "keyPath"])
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
