@testable import Confluence
import XCTest

/// A subscriber of a subject that is a reference and a one-byte tag (each side of `zip` and
/// `combineLatest`) is kept by the conduit as those two parts, without a box: it receives its
/// subscription, values and completion as a boxed one would, with its tag, shows in the
/// conduit's mirror as itself, and its reference is let go of when the subscription ends.
final class SubjectInlineSubscriberTests: XCTestCase {
  /// What the test subscriber's reference records: every event with the tag it came with.
  private final class Recorder: SubjectDownstreamReflecting {
    var events: [String] = []
    var subscription: Subscription?
    var initialDemand = Subscribers.Demand.unlimited

    func reflectedSubscriber(tag: UInt8) -> Any { Tagged(recorder: self, tag: tag) }
  }

  /// A reference and a byte: nine bytes, the shape the conduit keeps inline.
  private struct Tagged: SubjectInlineSubscriber {
    typealias Input = Int
    typealias Failure = TestError
    let recorder: Recorder
    let tag: UInt8
    var combineIdentifier: CombineIdentifier { CombineIdentifier(recorder) }

    var subjectReference: AnyObject { recorder }
    var subjectTag: UInt8 { tag }

    func receive(subscription: Subscription) {
      recorder.events.append("subscription \(tag)")
      recorder.subscription = subscription
      if recorder.initialDemand > 0 { subscription.request(recorder.initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      Self.record(recorder, tag: tag, "value \(input)")
      return .none
    }

    func receive(completion: Subscribers.Completion<TestError>) {
      Self.record(recorder, tag: tag, "completion \(completion)")
    }

    static func record(_ recorder: Recorder, tag: UInt8, _ event: String) {
      recorder.events.append("\(event) \(tag)")
    }

    static func subjectReceive(_ reference: AnyObject, tag: UInt8, value: UnsafeRawPointer) -> Subscribers.Demand {
      record(
        unsafeDowncast(reference, to: Recorder.self), tag: tag,
        "value \(value.assumingMemoryBound(to: Int.self).pointee) inline")
      return .none
    }

    static func subjectReceive(_ reference: AnyObject, tag: UInt8, completion: UnsafeRawPointer) {
      record(
        unsafeDowncast(reference, to: Recorder.self), tag: tag,
        "completion \(completion.assumingMemoryBound(to: Subscribers.Completion<TestError>.self).pointee) inline")
    }

    static func subjectReceive(_ reference: AnyObject, tag: UInt8, subscription: Subscription) {
      Tagged(recorder: unsafeDowncast(reference, to: Recorder.self), tag: tag).receive(subscription: subscription)
    }
  }

  private struct TestError: Error, Equatable {}

  /// Nine bytes too, but not inline: stored in the conduit (see `SubjectStoredSubscriberTests`).
  private struct NotInline: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    let recorder: Recorder
    let tag: UInt8
    var combineIdentifier: CombineIdentifier { CombineIdentifier(recorder) }
    func receive(subscription: Subscription) {}
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
  }

  func test_form_isInlineForTheFanInSidesAndTheShapeOnly() {
    XCTAssertEqual(SubjectDownstreamForm.of(Tagged.self), .inline)
    // If a side's subscriber ever stops being a reference and a byte, the subjects box it
    // again: this says so.
    XCTAssertEqual(MemoryLayout<FanInSubscriber<Int, Never>>.size, 9)
    XCTAssertEqual(SubjectDownstreamForm.of(FanInSubscriber<Int, Never>.self), .inline)
    XCTAssertEqual(SubjectDownstreamForm.of(FanInSubscriber<String, Error>.self), .inline)
    XCTAssertEqual(SubjectDownstreamForm.of(NotInline.self), .stored)
    // A class is itself where `of` is specialised, and in unoptimised code; called from here
    // in a debug build, `of` runs unspecialised in the optimised library, which boxes it.
    #if DEBUG && !CONFLUENCE_UNOPTIMISED
      XCTAssertEqual(SubjectDownstreamForm.of(Subscribers.Sink<Int, Never>.self), .boxed)
    #else
      XCTAssertEqual(SubjectDownstreamForm.of(Subscribers.Sink<Int, Never>.self), .itself)
    #endif
    XCTAssertEqual(SubjectDownstreamForm.of(AnySubscriber<Int, Never>.self), .stored)
  }

  func test_passthrough_deliversWithTheTag_andLetsTheReferenceGoAtCancel() throws {
    let subject = PassthroughSubject<Int, TestError>()
    weak var weakRecorder: Recorder?
    var subscription: Subscription?
    do {
      let recorder = Recorder()
      weakRecorder = recorder
      subject.subscribe(Tagged(recorder: recorder, tag: 0))
      subject.send(1)
      subject.send(2)
      XCTAssertEqual(recorder.events, ["subscription 0", "value 1 inline 0", "value 2 inline 0"])
      subscription = recorder.subscription
      recorder.subscription = nil
    }
    XCTAssertNotNil(weakRecorder, "the conduit holds the reference while the subscription lives")
    do {
      // The mirror's rebuilt subscriber holds the recorder too: gone at the end of this scope.
      let shown = try XCTUnwrap(subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") })
      let rebuilt = try XCTUnwrap(shown as? Tagged, "the mirror shows the subscriber: \(shown)")
      XCTAssertEqual(rebuilt.tag, 0)
      XCTAssertTrue(rebuilt.recorder === weakRecorder)
    }
    subscription?.cancel()
    XCTAssertNil(weakRecorder, "let go of at cancel, with the subject and the subscription still alive")
    XCTAssertEqual(
      subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }.map { String(describing: $0) }, "nil")
    subject.send(3)
    withExtendedLifetime(subject) {}
  }

  func test_completionAndFailure_reachTheSubscriberWithTheTag_andLetItGo() {
    for completion in [Subscribers.Completion<TestError>.finished, .failure(TestError())] {
      let subject = PassthroughSubject<Int, TestError>()
      weak var weakRecorder: Recorder?
      var events: [String] = []
      do {
        let recorder = Recorder()
        weakRecorder = recorder
        subject.subscribe(Tagged(recorder: recorder, tag: 200))
        subject.send(5)
        subject.send(completion: completion)
        subject.send(6)
        events = recorder.events
        recorder.subscription = nil
      }
      XCTAssertEqual(events, ["subscription 200", "value 5 inline 200", "completion \(completion) inline 200"])
      XCTAssertNil(weakRecorder, "let go of at completion")
    }
  }

  func test_currentValueSubject_deliversOnDemand_fromInsideReceiveSubscriptionAndLater() {
    let subject = CurrentValueSubject<Int, TestError>(7)
    let recorder = Recorder()
    recorder.initialDemand = .max(1)
    subject.subscribe(Tagged(recorder: recorder, tag: 1))
    subject.send(8)  // no demand left: dropped, as for any subscriber
    recorder.subscription?.request(.max(2))
    subject.send(9)
    subject.send(10)
    XCTAssertEqual(recorder.events, ["subscription 1", "value 7 inline 1", "value 8 inline 1", "value 9 inline 1"])
    recorder.subscription?.cancel()
  }

  func test_aSubjectThatAlreadyCompleted_handsTheSubscriberTheCompletionItself() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(completion: .finished)
    let recorder = Recorder()
    subject.subscribe(Tagged(recorder: recorder, tag: 4))
    // The conduit never served: the subscriber's own `receive(completion:)` runs.
    XCTAssertEqual(recorder.events, ["subscription 4", "completion finished 4"])
  }

  // MARK: The fan-in operators, through the public API

  /// Keeps the subscription it is given, asks for everything, records values.
  private final class Downstream<Input>: Subscriber {
    typealias Failure = Never
    var subscription: Subscription?
    var values: [Input] = []
    var completions = 0
    func receive(subscription: Subscription) {
      self.subscription = subscription
      subscription.request(.unlimited)
    }
    func receive(_ input: Input) -> Subscribers.Demand {
      values.append(input)
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { completions += 1 }
  }

  func test_zipOfErasedSubjects_pairsValuesCompletes_andItsSubscriptionIsLetGoOfAtCancel() {
    let a = PassthroughSubject<Int, Never>()
    let b = CurrentValueSubject<String, Never>("x")
    let c = PassthroughSubject<Int, Never>()
    let d = CurrentValueSubject<Int, Never>(40)
    let downstream = Downstream<(Int, String, Int, Int)>()
    a.eraseToAnyPublisher().zip(b.eraseToAnyPublisher(), c, d).subscribe(downstream)
    a.send(1)
    c.send(3)
    b.send("y")
    a.send(2)
    d.send(41)
    c.send(4)
    XCTAssertEqual(downstream.values.map { "\($0)" }, ["(1, \"x\", 3, 40)", "(2, \"y\", 4, 41)"])
    weak let weakSubscription = downstream.subscription as AnyObject?
    XCTAssertNotNil(weakSubscription)
    downstream.subscription?.cancel()
    downstream.subscription = nil
    XCTAssertNil(weakSubscription, "each subject let go of its side at cancel")
    a.send(5)
    c.send(5)
    XCTAssertEqual(downstream.values.count, 2)
  }

  func test_combineLatestOfSubjects_deliversAndCompletesWhenAllFinish() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let downstream = Downstream<(Int, Int)>()
    a.combineLatest(b).subscribe(downstream)
    a.send(1)
    b.send(10)
    a.send(2)
    b.send(20)
    XCTAssertEqual(downstream.values.map { $0.0 * 100 + $0.1 }, [110, 210, 220])
    a.send(completion: .finished)
    XCTAssertEqual(downstream.completions, 0)
    weak let weakSubscription = downstream.subscription as AnyObject?
    downstream.subscription = nil
    b.send(completion: .finished)
    XCTAssertEqual(downstream.completions, 1)
    XCTAssertNil(weakSubscription, "let go of once both subjects completed")
  }

  func test_zipEntry_rebuildsEachSidesSubscriber_forAConduitsMirror() throws {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    let c = PassthroughSubject<Int, Never>()
    let d = PassthroughSubject<Double, Never>()
    let downstream = Downstream<(Int, String, Int, Double)>()
    a.zip(b, c, d).subscribe(downstream)
    let entry = try XCTUnwrap(downstream.subscription as? SubjectDownstreamReflecting)
    typealias Side<Input> = FanInSubscriber<Input, Never>
    let parent = try XCTUnwrap(downstream.subscription as? FanInEntry<Int, String, Int, Double, Never>)
    let tags = [FanInSide.a, .b, .c, .d].map { Side<Int>(parent: parent, side: $0).subjectTag }
    XCTAssertEqual(Set(tags).count, 4, "each side has a tag of its own")
    let sides = tags.map { entry.reflectedSubscriber(tag: $0) }
    XCTAssertEqual((sides[0] as? Side<Int>)?.side, .a)
    XCTAssertEqual((sides[1] as? Side<String>)?.side, .b)
    XCTAssertEqual((sides[2] as? Side<Int>)?.side, .c)
    XCTAssertEqual((sides[3] as? Side<Double>)?.side, .d)
    for side in sides {
      XCTAssertTrue(
        (side as? Side<Int>)?.parent ?? (side as? Side<String>)?.parent ?? (side as? Side<Double>)?.parent === entry)
      XCTAssertEqual(String(describing: side), "Zip")
    }
    downstream.subscription?.cancel()
    downstream.subscription = nil
  }
}
