@testable import Confluence
import XCTest

/// A subscriber of a subject that is a small structure (a `map` relay, an `AnySubscriber`)
/// lives inside the subject's conduit, without a box: it receives its subscription, values
/// and completion as a boxed one would, shows in the conduit's mirror as itself, and is
/// destroyed — letting go of what it holds — when the subscription is cancelled or
/// completed, and when the subject refused it. (A subject that goes away with live
/// subscribers does not: its conduits keep it alive, as Apple's do, until they end.)
final class SubjectStoredSubscriberTests: XCTestCase {
  private struct TestError: Error, Equatable {}

  /// Records what reaches it; keeps its subscription unless told to let it go.
  private final class Recorder: Subscriber {
    typealias Input = Int
    typealias Failure = TestError
    var events: [String] = []
    var subscription: Subscription?
    var demand = Subscribers.Demand.unlimited

    func receive(subscription: Subscription) {
      events.append("subscription")
      self.subscription = subscription
      if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      events.append("value \(input)")
      return .none
    }

    func receive(completion: Subscribers.Completion<TestError>) {
      events.append("completion \(completion)")
    }
  }

  /// Three words: a reference and a closure, as `map`'s relay.
  private struct Relay: Subscriber {
    typealias Input = Int
    typealias Failure = TestError
    let recorder: Recorder
    let transform: (Int) -> Int
    var combineIdentifier: CombineIdentifier { CombineIdentifier(recorder) }
    func receive(subscription: Subscription) { recorder.receive(subscription: subscription) }
    func receive(_ input: Int) -> Subscribers.Demand { recorder.receive(transform(input)) }
    func receive(completion: Subscribers.Completion<TestError>) { recorder.receive(completion: completion) }
  }

  /// Four words: too big to be stored, boxed.
  private struct Wide: Subscriber {
    typealias Input = Int
    typealias Failure = TestError
    let recorder: Recorder
    let transform: (Int) -> Int
    let extra: Int
    var combineIdentifier: CombineIdentifier { CombineIdentifier(recorder) }
    func receive(subscription: Subscription) { recorder.receive(subscription: subscription) }
    func receive(_ input: Int) -> Subscribers.Demand { recorder.receive(transform(input) + extra) }
    func receive(completion: Subscribers.Completion<TestError>) { recorder.receive(completion: completion) }
  }

  func test_form_isStoredForStructuresOfThreeWordsAtMost() {
    XCTAssertEqual(MemoryLayout<Relay>.size, 24)
    XCTAssertEqual(SubjectDownstreamForm.of(Relay.self), .stored)
    XCTAssertEqual(SubjectDownstreamForm.of(Wide.self), .boxed)
    XCTAssertEqual(SubjectDownstreamForm.of(AnySubscriber<Int, TestError>.self), .stored)
    XCTAssertNotEqual(SubjectDownstreamForm.of(Recorder.self), .stored, "a class is never stored")
  }

  func test_valuesAndCancel_reachTheStoredSubscriber_andCancelDestroysIt() throws {
    let subject = PassthroughSubject<Int, TestError>()
    weak var weakRecorder: Recorder?
    var subscription: Subscription?
    do {
      let recorder = Recorder()
      weakRecorder = recorder
      subject.subscribe(Relay(recorder: recorder, transform: { $0 * 10 }))
      subject.send(1)
      subject.send(2)
      XCTAssertEqual(recorder.events, ["subscription", "value 10", "value 20"])
      subscription = recorder.subscription
      recorder.subscription = nil
    }
    XCTAssertNotNil(weakRecorder, "the conduit holds the relay, which holds the recorder")
    do {
      let shown = try XCTUnwrap(subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") })
      let relay = try XCTUnwrap(shown as? Relay, "the mirror shows the stored subscriber: \(shown)")
      XCTAssertTrue(relay.recorder === weakRecorder)
    }
    subscription?.cancel()
    XCTAssertNil(weakRecorder, "destroyed at cancel, with the subject and the subscription still alive")
    XCTAssertEqual(
      subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }.map { String(describing: $0) }, "nil")
    subject.send(3)
    withExtendedLifetime(subject) {}
  }

  func test_completion_reachesTheStoredSubscriber_andDestroysIt_evenWhenItKeepsItsSubscription() {
    for completion in [Subscribers.Completion<TestError>.finished, .failure(TestError())] {
      let subject = CurrentValueSubject<Int, TestError>(4)
      weak var weakRecorder: Recorder?
      var events: [String] = []
      do {
        let recorder = Recorder()
        weakRecorder = recorder
        subject.subscribe(Relay(recorder: recorder, transform: { $0 + 1 }))
        subject.send(completion: completion)
        subject.send(6)
        events = recorder.events
        // The recorder keeps its subscription (the conduit): had the conduit kept the relay,
        // which holds the recorder, the two would keep each other alive.
      }
      XCTAssertEqual(events, ["subscription", "value 5", "completion \(completion)"])
      XCTAssertNil(weakRecorder, "destroyed at completion")
    }
  }

  func test_aSubjectThatAlreadyCompleted_completesTheSubscriber_andKeepsNothing() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(completion: .finished)
    weak var weakRecorder: Recorder?
    do {
      let recorder = Recorder()
      weakRecorder = recorder
      subject.subscribe(Relay(recorder: recorder, transform: { $0 }))
      XCTAssertEqual(recorder.events, ["subscription", "completion finished"])
      recorder.subscription = nil
    }
    XCTAssertNil(weakRecorder)
    withExtendedLifetime(subject) {}
  }

  func test_demand_isHonouredThroughTheStoredSubscriber() {
    let subject = CurrentValueSubject<Int, TestError>(7)
    let recorder = Recorder()
    recorder.demand = .max(1)
    subject.subscribe(Relay(recorder: recorder, transform: { $0 }))
    subject.send(8)  // no demand left: becomes the current value, delivered on the request
    recorder.subscription?.request(.max(2))
    subject.send(9)
    subject.send(10)  // no demand left
    XCTAssertEqual(recorder.events, ["subscription", "value 7", "value 8", "value 9"])
    recorder.subscription?.cancel()
  }

  func test_mapOnASubject_throughThePublicAPI_deliversAndLetsGoAtCancel() {
    let subject = PassthroughSubject<Int, TestError>()
    weak var weakRecorder: Recorder?
    do {
      let recorder = Recorder()
      weakRecorder = recorder
      subject.map { $0 * 3 }.subscribe(recorder)
      subject.eraseToAnyPublisher().map { -$0 }.subscribe(AnySubscriber(recorder))
      subject.send(2)
      XCTAssertEqual(recorder.events, ["subscription", "subscription", "value 6", "value -2"])
      recorder.subscription?.cancel()  // the second subscription
      subject.send(3)
      XCTAssertEqual(recorder.events.last, "value 9")
      recorder.subscription = nil
    }
    XCTAssertNotNil(weakRecorder, "the first subscription still holds it")
    subject.send(completion: .finished)
    XCTAssertNil(weakRecorder)
  }
}
