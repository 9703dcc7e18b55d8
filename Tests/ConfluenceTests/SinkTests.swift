import Confluence
import ConfluenceTesting
import XCTest

final class SinkTests: XCTestCase {
  func test_receivesValuesAndCompletion() {
    var values: [Int] = []
    var completions: [Subscribers.Completion<Never>] = []
    let cancellable = (1...3).publisher.sink(
      receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
    XCTAssertEqual(values, [1, 2, 3])
    XCTAssertEqual(completions, [.finished])
    cancellable.cancel()
  }

  func test_requestsUnlimited() {
    let probe = DemandProbe()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: probe)
    XCTAssertEqual(probe.requests, [.unlimited])
  }

  func test_secondSubscription_isCancelled() {
    let first = DemandProbe()
    let second = DemandProbe()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: first)
    sink.receive(subscription: second)
    XCTAssertEqual(second.cancels, 1)
    XCTAssertEqual(second.requests, [])
    XCTAssertEqual(first.cancels, 0)
  }

  func test_cancel_cancelsSubscriptionOnce() {
    let probe = DemandProbe()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: probe)
    sink.cancel()
    sink.cancel()
    XCTAssertEqual(probe.cancels, 1)
  }

  func test_afterCompletion_cancelDoesNotReachSubscription() {
    let probe = DemandProbe()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: probe)
    sink.receive(completion: .finished)
    sink.cancel()
    XCTAssertEqual(probe.cancels, 0)
  }

  func test_onlyTheFirstCompletionCounts() {
    var completions: [Subscribers.Completion<TestError>] = []
    let sink = Subscribers.Sink<Int, TestError>(receiveCompletion: { completions.append($0) }, receiveValue: { _ in })
    sink.receive(subscription: DemandProbe())
    sink.receive(completion: .failure(TestError("first")))
    sink.receive(completion: .finished)
    XCTAssertEqual(completions, [.failure(TestError("first"))])
  }

  func test_completionAfterCancel_isIgnored() {
    var completions = 0
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in completions += 1 }, receiveValue: { _ in })
    sink.receive(subscription: DemandProbe())
    sink.cancel()
    sink.receive(completion: .finished)
    XCTAssertEqual(completions, 0)
  }

  func test_subscriptionAfterCompletion_isCancelled() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: DemandProbe())
    sink.receive(completion: .finished)
    let late = DemandProbe()
    sink.receive(subscription: late)
    XCTAssertEqual(late.cancels, 1)
    XCTAssertEqual(late.requests, [])
  }

  func test_failureReachesCompletionClosure() {
    var completion: Subscribers.Completion<TestError>?
    _ = Publishers.Sequence<[Int], TestError>(sequence: []).sink(
      receiveCompletion: { completion = $0 }, receiveValue: { _ in })
    XCTAssertEqual(completion, .finished)
  }

  func test_droppingToken_cancelsAndFreesUpstream() {
    let probe = DemandProbe()
    weak var weakSink: Subscribers.Sink<Int, Never>?
    do {
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      weakSink = sink
      sink.receive(subscription: probe)
      _ = AnyCancellable(sink)
    }
    XCTAssertEqual(probe.cancels, 1)
    XCTAssertNil(weakSink)
  }

  func test_description() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    XCTAssertEqual(sink.description, "Sink")
    XCTAssertEqual(sink.playgroundDescription as? String, "Sink")
    XCTAssertEqual(sink.customMirror.children.count, 0)
  }
}

/// A subscription that records what it was asked.
final class DemandProbe: Subscription, CustomStringConvertible {
  var description: String { "DemandProbe" }
  var requests: [Subscribers.Demand] = []
  var cancels = 0
  func request(_ demand: Subscribers.Demand) { requests.append(demand) }
  func cancel() { cancels += 1 }
}

// MARK: - After the end: what still arrives is ignored, the closures are let go of

extension SinkTests {
  private enum Ending: CaseIterable {
    case finished, failure, cancel, finishedBeforeSubscription
  }

  /// A sink whose closures each capture an object of `tracker`, and record what they see.
  private final class Recorder {
    var values: [Int] = []
    var completions: [Subscribers.Completion<TestError>] = []
  }

  private func makeSink(_ tracker: LifetimeTracker, _ recorder: Recorder) -> Subscribers.Sink<Int, TestError> {
    Subscribers.Sink(
      receiveCompletion: { [probe = tracker.make(), recorder] completion in
        withExtendedLifetime(probe) { recorder.completions.append(completion) }
      },
      receiveValue: { [probe = tracker.make(), recorder] value in
        withExtendedLifetime(probe) { recorder.values.append(value) }
      })
  }

  /// Ends a sink (held by the test) as `ending` says, then sends it values and completions
  /// directly and through its upstream, as a misbehaving publisher would.
  private func endThenMisbehave(_ ending: Ending) -> (LifetimeTracker, Recorder, Subscribers.Sink<Int, TestError>) {
    let tracker = LifetimeTracker()
    let recorder = Recorder()
    let sink = makeSink(tracker, recorder)
    let upstream = DemandProbe()
    if ending != .finishedBeforeSubscription {
      sink.receive(subscription: upstream)
      _ = sink.receive(1)
    }
    switch ending {
    case .finished, .finishedBeforeSubscription: sink.receive(completion: .finished)
    case .failure: sink.receive(completion: .failure(TestError("end")))
    case .cancel: sink.cancel()
    }
    _ = sink.receive(2)
    sink.receive(completion: .failure(TestError("late")))
    _ = sink.receive(3)
    sink.receive(completion: .finished)
    return (tracker, recorder, sink)
  }

  func test_afterTheEnd_valuesAndCompletionsAreIgnored() {
    for ending in Ending.allCases {
      let (_, recorder, sink) = endThenMisbehave(ending)
      let expectedValues = ending == .finishedBeforeSubscription ? [] : [1]
      let expectedCompletions: [Subscribers.Completion<TestError>]
      switch ending {
      case .finished, .finishedBeforeSubscription: expectedCompletions = [.finished]
      case .failure: expectedCompletions = [.failure(TestError("end"))]
      case .cancel: expectedCompletions = []
      }
      XCTAssertEqual(recorder.values, expectedValues, "\(ending)")
      XCTAssertEqual(recorder.completions, expectedCompletions, "\(ending)")
      withExtendedLifetime(sink) {}
    }
  }

  func test_afterTheEnd_theClosuresAreLetGo_whileTheSinkLives() {
    for ending in Ending.allCases {
      let (tracker, _, sink) = endThenMisbehave(ending)
      XCTAssertEqual(tracker.madeCount, 2, "\(ending)")
      XCTAssertEqual(tracker.liveCount, 0, "\(ending)")
      withExtendedLifetime(sink) {}
    }
  }

  /// Apple's sink, cancelled before any subscription arrived, has nothing to cancel and
  /// does nothing: the conformance suite records a sink whose token was dropped before its
  /// subscription counting every value then sent to it.
  func test_cancelBeforeASubscription_changesNothing() {
    let tracker = LifetimeTracker()
    let recorder = Recorder()
    let sink = makeSink(tracker, recorder)
    sink.cancel()
    _ = sink.receive(1)
    XCTAssertEqual(recorder.values, [1])
    XCTAssertEqual(tracker.liveCount, 2, "the closures are kept")
    let late = DemandProbe()
    sink.receive(subscription: late)
    XCTAssertEqual(late.requests, [.unlimited], "a later subscription is accepted")
    sink.cancel()
    XCTAssertEqual(late.cancels, 1)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_whileLive_theClosuresAreKept() {
    let tracker = LifetimeTracker()
    let recorder = Recorder()
    let sink = makeSink(tracker, recorder)
    sink.receive(subscription: DemandProbe())
    _ = sink.receive(1)
    XCTAssertEqual(tracker.liveCount, 2)
    sink.receiveValue(5)
    XCTAssertEqual(recorder.values, [1, 5], "the receiveValue property is the closure given")
    sink.cancel()
    sink.receiveValue(6)
    sink.receiveCompletion(.finished)
    XCTAssertEqual(recorder.values, [1, 5], "once let go of, the properties do nothing")
    XCTAssertEqual(recorder.completions, [])
  }

  func test_cancelFromInsideReceiveValue_letsGoOfTheClosuresWhenTheCallReturns() {
    let tracker = LifetimeTracker()
    let subject = PassthroughSubject<Int, Never>()
    var seenAfterCancel: [Int] = []
    var sink: Subscribers.Sink<Int, Never>?
    sink = Subscribers.Sink(
      receiveCompletion: { [probe = tracker.make()] _ in withExtendedLifetime(probe) {} },
      receiveValue: { [probe = tracker.make()] value in
        sink?.cancel()
        // The closure's captures are still alive for the rest of this call.
        seenAfterCancel.append(value + probe.id - probe.id)
      })
    subject.subscribe(sink!)
    XCTAssertEqual(tracker.liveCount, 2)
    subject.send(4)
    XCTAssertEqual(seenAfterCancel, [4])
    XCTAssertEqual(tracker.liveCount, 0, "let go once the call returned")
    subject.send(5)
    XCTAssertEqual(seenAfterCancel, [4])
    withExtendedLifetime(sink) {}
  }

  func test_completionFromInsideReceiveValue_isDelivered_andTheClosuresGoWhenTheValuesCallReturns() {
    let tracker = LifetimeTracker()
    var events: [String] = []
    var sink: Subscribers.Sink<Int, Never>?
    sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { [probe = tracker.make()] _ in withExtendedLifetime(probe) { events.append("finished") } },
      receiveValue: { [probe = tracker.make()] value in
        // An upstream that completes while its value is still being delivered.
        sink?.receive(completion: .finished)
        events.append("\(value + probe.id - probe.id)")
      })
    sink?.receive(subscription: DemandProbe())
    _ = sink?.receive(7)
    XCTAssertEqual(events, ["finished", "7"])
    XCTAssertEqual(tracker.liveCount, 0)
    withExtendedLifetime(sink) {}
  }

  func test_justsDirectDelivery_cancelInsideReceiveValue_dropsTheFinished_andLetsGo() {
    let tracker = LifetimeTracker()
    var events: [String] = []
    var token: AnyCancellable?
    var sink: Subscribers.Sink<Int, Never>?
    sink = Subscribers.Sink(
      receiveCompletion: { [probe = tracker.make()] _ in withExtendedLifetime(probe) { events.append("finished") } },
      receiveValue: { [probe = tracker.make()] value in
        sink?.cancel()
        events.append("\(value + probe.id - probe.id)")
      })
    Just(3).subscribe(sink!)
    XCTAssertEqual(events, ["3"])
    XCTAssertEqual(tracker.liveCount, 0)
    token = AnyCancellable(sink!)
    token?.cancel()
    withExtendedLifetime(token) {}
  }

  func test_sinkCapturingItsOwner_stopsKeepingIt_atCompletion() {
    final class Owner {
      var cancellables = Set<AnyCancellable>()
      var last: Int?
    }
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: Owner?
    do {
      let owner = Owner()
      weakOwner = owner
      subject.sink { owner.last = $0 }.store(in: &owner.cancellables)
      subject.send(1)
      XCTAssertEqual(owner.last, 1)
    }
    XCTAssertNotNil(weakOwner, "owner -> token -> sink -> closure -> owner, while live")
    subject.send(completion: .finished)
    XCTAssertNil(weakOwner, "the sink let go of its closure at completion")
  }

  // MARK: A sequence's values as one run through the sink's gate
  //
  // With unlimited demand a `Publishers.Sequence` hands a sink its values as one run (the
  // gate entered once, one check per value). These pin that a run keeps every rule of
  // value-by-value delivery: the end is seen at the next value, the closures go once the
  // call that ended the sink returns, re-entrant deliveries nest.

  func test_sequenceRun_cancelFromInsideReceiveValue_stopsAtThatValue_andLetsGoWhenItReturns() {
    for cancelAt in [0, 1, 4] {  // the first value (before the run opens), the second, inside
      let tracker = LifetimeTracker()
      var values: [Int] = []
      var completions = 0
      var livesDuringTheCall: [Int] = []
      var sink: Subscribers.Sink<Int, Never>?
      sink = Subscribers.Sink(
        receiveCompletion: { [probe = tracker.make()] _ in withExtendedLifetime(probe) { completions += 1 } },
        receiveValue: { [probe = tracker.make()] value in
          values.append(value + probe.id - probe.id)
          if value == cancelAt {
            sink?.cancel()
            livesDuringTheCall.append(tracker.liveCount)
          }
        })
      (0..<10).publisher.subscribe(sink!)
      XCTAssertEqual(values, Array(0...cancelAt), "cancelled at \(cancelAt)")
      XCTAssertEqual(completions, 0, "a cancelled sink hears no completion")
      XCTAssertEqual(livesDuringTheCall, [2], "the closures live until the call that cancelled returns")
      XCTAssertEqual(tracker.liveCount, 0, "cancelled at \(cancelAt): let go once the call returned")
      withExtendedLifetime(sink) {}
    }
  }

  func test_sequenceRun_completionSentToTheSinkFromInsideReceiveValue_endsIt_theRestIsIgnored() {
    let tracker = LifetimeTracker()
    var events: [String] = []
    var sink: Subscribers.Sink<Int, Never>?
    sink = Subscribers.Sink(
      receiveCompletion: { [probe = tracker.make()] _ in withExtendedLifetime(probe) { events.append("finished") } },
      receiveValue: { [probe = tracker.make()] value in
        // A misbehaving caller ends the sink while the sequence still runs into it.
        if value == 2 { sink?.receive(completion: .finished) }
        events.append("\(value + probe.id - probe.id)")
      })
    (0..<6).publisher.subscribe(sink!)
    XCTAssertEqual(events, ["0", "1", "finished", "2"], "nothing after the end, and one completion")
    XCTAssertEqual(tracker.liveCount, 0)
    withExtendedLifetime(sink) {}
  }

  func test_sequenceRun_aValueSentToTheSinkFromInsideReceiveValue_isDeliveredInPlace() {
    var values: [Int] = []
    var sink: Subscribers.Sink<Int, Never>?
    sink = Subscribers.Sink(receiveCompletion: { _ in values.append(-1) }) { value in
      values.append(value)
      if value == 1 { _ = sink?.receive(100) }
    }
    (0..<4).publisher.subscribe(sink!)
    XCTAssertEqual(values, [0, 1, 100, 2, 3, -1])
    withExtendedLifetime(sink) {}
  }

  func test_sequenceRun_cancelInsideReceiveValue_stopsALongSequence() {
    var count = 0
    var sink: Subscribers.Sink<Int, Never>?
    sink = Subscribers.Sink(receiveCompletion: { _ in XCTFail("a cancelled sink heard a completion") }) { value in
      count += 1
      if value == 5 { sink?.cancel() }
    }
    (0..<1_000_000).publisher.subscribe(sink!)
    XCTAssertEqual(count, 6, "the sequence went on after its sink was cancelled")
    withExtendedLifetime(sink) {}
  }

  func test_sequenceRun_aCancelBeforeTheSubscription_changesNothing_theRunDelivers_andTheClosuresGoAtTheEnd() {
    let tracker = LifetimeTracker()
    var values: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { [probe = tracker.make()] _ in withExtendedLifetime(probe) { values.append(-1) } },
      receiveValue: { [probe = tracker.make()] value in values.append(value + probe.id - probe.id) })
    sink.cancel()  // Apple's sink ignores a cancel that comes before its subscription
    (0..<5).publisher.subscribe(sink)
    XCTAssertEqual(values, [0, 1, 2, 3, 4, -1])
    XCTAssertEqual(tracker.liveCount, 0, "let go at the completion")
    _ = sink.receive(9)
    XCTAssertEqual(values, [0, 1, 2, 3, 4, -1])
  }
}

// MARK: A new sink on a publisher that sends everything on subscription
//
// `sink(receiveCompletion:receiveValue:)` on `Just`, `Optional.Publisher`,
// `Result.Publisher` (and an `AnyPublisher` wrapping one) hands the new sink its value and
// completion with no subscription in between (`Publisher._subscribeNewSink(_:)`). These pin
// that nothing anyone can observe differs from subscribing a sink the ordinary way: the
// events and their order, the closures let go of at the end while the token lives, a cancel
// through the token after the end, and what an enabled `_Introspection` is told.

extension SinkTests {
  /// Each publisher of the family, named, as a way to attach a sink's closures either with
  /// `sink(receiveCompletion:receiveValue:)` or by subscribing a `Subscribers.Sink`. The
  /// closures record into `record` and each keeps one object of `tracker` alive.
  private struct OneShot {
    let name: String
    let attach:
      (_ viaSinkMethod: Bool, _ tracker: LifetimeTracker, _ record: @escaping (String) -> Void) -> AnyCancellable

    init<P: Publisher>(_ name: String, _ publisher: P) where P.Output == Int {
      self.name = name
      attach = { viaSinkMethod, tracker, record in
        let completion: (Subscribers.Completion<P.Failure>) -> Void = { [probe = tracker.make()] completion in
          withExtendedLifetime(probe) { record("\(completion)") }
        }
        let value: (Int) -> Void = { [probe = tracker.make()] value in
          withExtendedLifetime(probe) { record("value \(value)") }
        }
        if viaSinkMethod { return publisher.sink(receiveCompletion: completion, receiveValue: value) }
        let sink = Subscribers.Sink<Int, P.Failure>(receiveCompletion: completion, receiveValue: value)
        publisher.subscribe(sink)
        return AnyCancellable(sink)
      }
    }
  }

  private var oneShots: [OneShot] {
    [
      OneShot("Just", Just(1)),
      OneShot("Just, mapped", Just(1).map { $0 + 1 }),
      OneShot("Optional.some", Optional(3).publisher),
      OneShot("Optional.none", Optional<Int>.none.publisher),
      OneShot("Result.success", Result<Int, TestError>.success(4).publisher),
      OneShot("Result.failure", Result<Int, TestError>.failure(TestError("r")).publisher),
      OneShot("Just.setFailureType", Just(6).setFailureType(to: TestError.self)),
      OneShot("AnyPublisher(Just)", Just(5).eraseToAnyPublisher()),
      OneShot(
        "AnyPublisher(Result.failure)", Result<Int, TestError>.failure(TestError("e")).publisher.eraseToAnyPublisher()),
      OneShot("AnyPublisher(Optional.none)", Optional<Int>.none.publisher.eraseToAnyPublisher()),
      OneShot("Empty", Empty<Int, Never>()),
      OneShot("Empty, never completing", Empty<Int, Never>(completeImmediately: false)),
      OneShot("Fail", Fail<Int, TestError>(error: TestError("f"))),
      OneShot("AnyPublisher(Fail)", Fail<Int, TestError>(error: TestError("g")).eraseToAnyPublisher()),
      OneShot("AnyPublisher(a subject that finished)", finishedSubject()),
    ]
  }

  /// A publisher outside the family, behind an `AnyPublisher`: it takes the ordinary path.
  private func finishedSubject() -> AnyPublisher<Int, Never> {
    let subject = CurrentValueSubject<Int, Never>(7)
    subject.send(completion: .finished)
    return subject.eraseToAnyPublisher()
  }

  /// What one attach shows: the events in order, how many closures are still alive while
  /// the token lives, and the events and live closures after cancelling through the token.
  private func observe(_ oneShot: OneShot, viaSinkMethod: Bool) -> (
    events: [String], liveWithToken: Int, afterCancel: [String], liveAfterCancel: Int
  ) {
    let tracker = LifetimeTracker()
    var events: [String] = []
    let token = oneShot.attach(viaSinkMethod, tracker) { events.append($0) }
    let seen = events
    let live = tracker.liveCount
    token.cancel()
    return (seen, live, events, tracker.liveCount)
  }

  func test_newSinkOnAOneShotPublisher_behavesAsASubscribedSink() {
    for oneShot in oneShots {
      let viaSink = observe(oneShot, viaSinkMethod: true)
      let subscribed = observe(oneShot, viaSinkMethod: false)
      XCTAssertEqual(viaSink.events, subscribed.events, oneShot.name)
      XCTAssertEqual(viaSink.liveWithToken, subscribed.liveWithToken, oneShot.name)
      XCTAssertEqual(viaSink.afterCancel, viaSink.events, "\(oneShot.name): a cancel adds no event")
      XCTAssertEqual(viaSink.liveAfterCancel, 0, "\(oneShot.name): nothing is kept once the token is cancelled")
      XCTAssertEqual(subscribed.liveAfterCancel, 0, oneShot.name)
      if oneShot.name == "Empty, never completing" {
        XCTAssertEqual(viaSink.events, [], oneShot.name)
        XCTAssertEqual(viaSink.liveWithToken, 2, "\(oneShot.name): a live sink keeps its closures")
      } else {
        XCTAssertEqual(viaSink.liveWithToken, 0, "\(oneShot.name): the closures go at the end, the token alive")
        XCTAssertTrue(
          viaSink.events.last == "finished" || viaSink.events.last?.hasPrefix("failure") == true,
          "\(oneShot.name): \(viaSink.events)")
      }
    }
  }

  func test_newSinkOnAOneShotPublisher_whileIntrospectionIsEnabled_isReportedAsASubscribedSinkIs() {
    final class Log: _Introspection {
      var lines: [String] = []
      func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
      where P.Failure == S.Failure, P.Output == S.Input {
        lines.append("subscribe \(subscriber)")
      }
      func willReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
        lines.append("subscription \(subscription)")
      }
      func willReceive<S: Subscriber>(subscriber: S, input: S.Input) { lines.append("value \(input)") }
      func willReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
        lines.append("\(completion)")
      }
    }
    for oneShot in oneShots {
      var logs: [[String]] = []
      for viaSinkMethod in [true, false] {
        let log = Log()
        log.enable()
        _ = observe(oneShot, viaSinkMethod: viaSinkMethod)
        log.disable()
        logs.append(log.lines)
      }
      XCTAssertEqual(logs[0], logs[1], oneShot.name)
      XCTAssertTrue(logs[0].contains { $0.hasPrefix("subscription ") }, "\(oneShot.name): \(logs[0])")
      XCTAssertTrue(logs[0].contains { $0.hasPrefix("subscribe ") }, "\(oneShot.name): \(logs[0])")
    }
  }
}
