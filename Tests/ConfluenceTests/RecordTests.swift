import Confluence
import ConfluenceTesting
import Foundation
import XCTest

/// An error that can be encoded, for the Codable tests.
private struct CodableError: Error, Codable, Equatable {
  let reason: String
}

final class RecordTests: XCTestCase {
  // MARK: Playback

  func test_recordClosure_playsValuesThenFinishes() {
    let record = Record<Int, Never> { recording in
      recording.receive(1)
      recording.receive(2)
      recording.receive(3)
      recording.receive(completion: .finished)
    }
    let subscriber = TestSubscriber<Int, Never>()
    record.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_failureCompletion_sentAfterValues() {
    let record = Record<String, TestError>(output: ["a", "b"], completion: .failure(TestError("end")))
    let subscriber = TestSubscriber<String, TestError>()
    record.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("[\"a\", \"b\"]"), .value("a"), .value("b"), .completion(.failure(TestError("end")))])
  }

  func test_demand_noneThenMaxOneThenMore_completesAfterLastValue() {
    let record = Record<Int, TestError>(output: [1, 2, 3], completion: .failure(TestError()))
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    record.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]"), .value(1)])
    subscriber.request(.max(2))
    XCTAssertEqual(
      subscriber.events,
      [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.failure(TestError()))])
    XCTAssertEqual(subscriber.demands, [.max(1), .max(2)])
  }

  func test_demandReturnedFromReceive_isHonoured() {
    let record = Record<Int, Never>(output: [1, 2, 3, 4], completion: .finished)
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    record.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4])
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.demands, [.max(1), .max(1), .max(1), .max(1), .max(1)])
  }

  func test_reentrantRequest_fromReceive_keepsOrder() {
    let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    subscriber.onValue = { _ in
      subscriber.request(.max(1))
      return .none
    }
    record.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.finished)])
  }

  func test_emptyRecording_completesAtOnceWithEmptySubscription() {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    Record<Int, TestError>(output: [], completion: .failure(TestError("nothing"))).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("nothing")))])
  }

  func test_replaysToEverySubscriber() {
    let record = Record<Int, Never>(output: [1, 2], completion: .finished)
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>(initialDemand: .max(1))
    record.subscribe(first)
    record.subscribe(second)
    XCTAssertEqual(first.values, [1, 2])
    XCTAssertEqual(second.values, [1])
  }

  // MARK: Cancellation

  func test_cancelMidway_sendsNothingMore() {
    let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    record.subscribe(subscriber)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(5))
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]"), .value(1)])
  }

  func test_cancelInsideReceive_stopsAtOnce() {
    let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { value in
      if value == 2 { subscriber.cancel() }
      return .none
    }
    record.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]"), .value(1), .value(2)])
  }

  func test_cancel_releasesSubscriber() {
    let tracker = LifetimeTracker()
    var subscription: Subscription?
    do {
      let probe = tracker.make()
      Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription = $0 },
          receiveValue: { [probe] _ in
            _ = probe
            return .none
          }))
    }
    XCTAssertEqual(tracker.liveCount, 1)
    subscription?.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_completion_releasesSubscriber() {
    let tracker = LifetimeTracker()
    var subscription: Subscription?
    do {
      let probe = tracker.make()
      Record<Int, Never>(output: [1], completion: .finished).subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: {
            subscription = $0
            $0.request(.max(1))
          },
          receiveValue: { [probe] _ in
            _ = probe
            return .none
          }))
    }
    XCTAssertEqual(tracker.liveCount, 0)
    XCTAssertNotNil(subscription)
  }

  // MARK: What print and mirrors show

  func test_subscriptionDescription_isTheRecordedValues_thenCancelledEvents() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(subscriber)
    let subscription = subscriber.subscription as? CustomStringConvertible
    XCTAssertEqual(subscription?.description, "[1, 2]")
    let playground = subscriber.subscription as? CustomPlaygroundDisplayConvertible
    XCTAssertEqual(playground?.playgroundDescription as? String, "[1, 2]")
    subscriber.request(.max(1))
    XCTAssertEqual(subscription?.description, "Cancelled Events")
  }

  func test_subscriptionMirror_showsSequenceAndCompletion_sequenceEmptiedWhenCancelled() throws {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    Record<Int, TestError>(output: [1, 2], completion: .failure(TestError("x"))).subscribe(subscriber)
    let subscription = try XCTUnwrap(subscriber.subscription)
    var children = Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
    XCTAssertEqual(children.map(\.0), ["sequence", "completion"])
    XCTAssertEqual(children.first?.1, "[1, 2]")
    XCTAssertTrue(children.last?.1.contains("failure") ?? false)
    subscription.cancel()
    XCTAssertEqual(String(describing: subscription), "Cancelled Events")
    children = Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
    XCTAssertEqual(children.first?.1, "[]")
  }

  func test_requestNone_isIgnored() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(subscriber)
    subscriber.subscription?.request(.none)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(2))
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  // MARK: Recording

  func test_recording_collectsOutputAndCompletion() {
    var recording = Record<Int, TestError>.Recording()
    XCTAssertEqual(recording.output, [])
    XCTAssertEqual(recording.completion, .finished)
    recording.receive(4)
    recording.receive(5)
    recording.receive(completion: .failure(TestError("stop")))
    XCTAssertEqual(recording.output, [4, 5])
    XCTAssertEqual(recording.completion, .failure(TestError("stop")))
    XCTAssertEqual(Record(recording: recording).recording.output, [4, 5])
  }

  func test_recordingWithoutCompletion_finishes() {
    let record = Record<Int, TestError> { $0.receive(1) }
    XCTAssertEqual(record.recording.completion, .finished)
    let subscriber = TestSubscriber<Int, TestError>()
    record.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1]"), .value(1), .completion(.finished)])
  }

  func test_recordingOutputInitializer_defaultsToFinished() {
    let recording = Record<Int, TestError>.Recording(output: [1, 2])
    XCTAssertEqual(recording.output, [1, 2])
    XCTAssertEqual(recording.completion, .finished)
  }

  func test_outputInitializer_storesRecording() {
    let record = Record<Int, TestError>(output: [7], completion: .failure(TestError()))
    XCTAssertEqual(record.recording.output, [7])
    XCTAssertEqual(record.recording.completion, .failure(TestError()))
  }

  // MARK: Codable

  func test_codable_roundTripsRecord() throws {
    let record = Record<Int, CodableError>(output: [1, 2, 3], completion: .failure(CodableError(reason: "cut")))
    let data = try JSONEncoder().encode(record)
    let decoded = try JSONDecoder().decode(Record<Int, CodableError>.self, from: data)
    XCTAssertEqual(decoded.recording.output, [1, 2, 3])
    XCTAssertEqual(decoded.recording.completion, .failure(CodableError(reason: "cut")))
    let subscriber = TestSubscriber<Int, CodableError>()
    decoded.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.failure(CodableError(reason: "cut")))])
  }

  func test_codable_roundTripsRecording() throws {
    let recording = Record<String, CodableError>.Recording(output: ["x"], completion: .finished)
    let data = try JSONEncoder().encode(recording)
    let decoded = try JSONDecoder().decode(Record<String, CodableError>.Recording.self, from: data)
    XCTAssertEqual(decoded.output, ["x"])
    XCTAssertEqual(decoded.completion, .finished)
  }

  func test_encodeInto_matchesEncodeTo() throws {
    let recording = Record<Int, CodableError>.Recording(output: [1], completion: .failure(CodableError(reason: "r")))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let viaEncodeTo = try encoder.encode(recording)
    let viaEncodeInto = try encoder.encode(EncodeIntoWrapper(recording: recording))
    XCTAssertEqual(String(decoding: viaEncodeInto, as: UTF8.self), String(decoding: viaEncodeTo, as: UTF8.self))
  }

  // MARK: The book's example

  /// Using Combine, reference chapter, `Record`.
  func test_bookExample_sinkReceivesRecordedValues() {
    let recordedPublisher = Record<String, Never> { example in
      example.receive("one")
      example.receive("two")
      example.receive("three")
      example.receive(completion: .finished)
    }
    var lines: [String] = []
    let cancellable = recordedPublisher.sink(
      receiveCompletion: { lines.append(".sink() received the completion: \(String(describing: $0))") },
      receiveValue: { lines.append(".sink() received value: \($0)") })
    XCTAssertEqual(
      lines,
      [
        ".sink() received value: one",
        ".sink() received value: two",
        ".sink() received value: three",
        ".sink() received the completion: finished",
      ])
    cancellable.cancel()
  }
}

/// Encodes a recording through `encode(into:)`.
private struct EncodeIntoWrapper: Encodable {
  let recording: Record<Int, CodableError>.Recording

  func encode(to encoder: Encoder) throws {
    try recording.encode(into: encoder)
  }
}
