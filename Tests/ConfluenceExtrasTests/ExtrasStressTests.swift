import Confluence
import ConfluenceExtras
import ConfluenceTesting
import Dispatch
import XCTest

/// The extras driven from several threads at once; `.ci/run` runs these (the class name
/// ends in `StressTests`) under the thread sanitizer.
final class ExtrasStressTests: XCTestCase {
  private typealias Source = ManualPublisher<Int, TestError>

  private func pair(_ value: Int, _ latest: Int) -> String { "\(value)+\(latest)" }

  /// Holds the emitter a `Create` closure received.
  private final class EmitterBox<Output, Failure: Error>: @unchecked Sendable {
    // @unchecked Sendable: set once inside `subscribe`, before the test reads it.
    var emitter: Publishers.Create<Output, Failure>.Emitter?
  }

  // MARK: withLatestFrom

  func test_concurrentUpstreamAndOther_deliverOneEventAtATime() {
    for round in 0..<200 {
      let upstream = Source()
      let other = Source()
      let subscriber = TestSubscriber<String, TestError>()
      let detector = OverlapDetector()
      subscriber.onValue = { _ in
        detector.enter()
        defer { detector.leave() }
        return .none
      }
      subscriber.onCompletion = { _ in
        detector.enter()
        detector.leave()
      }
      upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
      other.send(0)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 1...50 { upstream.send(value) }
          upstream.send(completion: .finished)
        } else {
          for value in 1...25 { other.send(value) }
          if round.isMultiple(of: 2) { other.send(completion: .failure(TestError("other"))) }
        }
      }
      XCTAssertFalse(detector.overlapped, "round \(round): downstream was entered twice at once")
      XCTAssertNotNil(subscriber.completion, "round \(round)")
      XCTAssertEqual(subscriber.violations, [], "round \(round)")
    }
  }

  // MARK: Publishers.Create

  func test_sendsFromManyThreads_withConcurrentRequests_deliverEverythingOnceInOrder() {
    let senders = 4
    let perSender = 500
    let box = EmitterBox<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    let detector = OverlapDetector()
    subscriber.onValue = { _ in
      detector.enter()
      detector.leave()
      return .none
    }
    Publishers.Create<Int, Never> { emitter in
      box.emitter = emitter
      return AnyCancellable {}
    }.subscribe(subscriber)
    let emitter = box.emitter!

    DispatchQueue.concurrentPerform(iterations: senders + 1) { index in
      if index == senders {
        for _ in 0..<(senders * perSender / 2) { subscriber.request(.max(1)) }
      } else {
        for value in 0..<perSender { emitter.send(index * 10_000 + value) }
      }
    }
    subscriber.request(.unlimited)
    emitter.send(completion: .finished)

    let values = subscriber.values
    XCTAssertEqual(values.count, senders * perSender)
    for sender in 0..<senders {
      XCTAssertEqual(
        values.filter { $0 / 10_000 == sender }, (0..<perSender).map { sender * 10_000 + $0 },
        "sender \(sender)'s values out of order")
    }
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.violations, [])
    XCTAssertFalse(detector.overlapped)
  }

  // MARK: ReplaySubject

  func test_concurrentSendsAndSubscribers_everySubscriberSeesOneOrder() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 1000)
    let early = TestSubscriber<Int, Never>()
    subject.subscribe(early)
    let late = TestSubscriber<Int, Never>()
    DispatchQueue.concurrentPerform(iterations: 5) { index in
      if index == 4 {
        subject.subscribe(late)
      } else {
        for value in 0..<250 { subject.send(index * 1000 + value) }
      }
    }
    subject.send(completion: .finished)
    XCTAssertEqual(early.values.count, 1000)
    XCTAssertEqual(late.values, early.values, "the replay plus live values must match what the early one saw")
    XCTAssertEqual(early.violations, [])
    XCTAssertEqual(late.violations, [])
    XCTAssertEqual(late.completion, .finished)
  }
}

/// Notices two threads inside a section at once, without blocking either.
final class OverlapDetector: @unchecked Sendable {
  // @unchecked Sendable: fields touched only under `lock`.
  private let lock = Lock()
  private var inside = 0
  private var sawOverlap = false

  func enter() {
    lock.withLock {
      inside += 1
      if inside > 1 { sawOverlap = true }
    }
  }

  func leave() { lock.withLock { inside -= 1 } }

  var overlapped: Bool { lock.withLock { sawOverlap } }
}
