import Confluence
import Foundation
import Synchronization
import XCTest

/// The rules a subject keeps when its only subscriber has unlimited demand (the case it
/// serves without its lock): deliveries to the subscriber never overlap, whatever sends,
/// subscribes, cancels or completes meanwhile and from whichever thread; what arrives
/// meanwhile is delivered after the current value, in order; a cancel or a second
/// subscriber takes effect for the values sent after it. `.ci/run` runs it under the thread
/// sanitizer with the other stress tests.
final class SubjectLaneStressTests: XCTestCase {
  /// Starts `senders` threads, each sending `perSender` values to `subject` (sender `k`
  /// sends `k * 1_000_000 + 1`, `+ 2`, …); the group is left when all are done.
  private func startSenders(_ senders: Int, sendingEach perSender: Int, to subject: PassthroughSubject<Int, Never>)
    -> DispatchGroup
  {
    let done = DispatchGroup()
    for sender in 0..<senders {
      done.enter()
      Thread {
        for seq in 1...perSender { subject.send(sender * 1_000_000 + seq) }
        done.leave()
      }.start()
    }
    return done
  }

  func test_loneUnlimitedSubscriber_concurrentSenders_deliveriesNeverOverlap() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = OverlapProbe()
    subject.subscribe(probe)
    let senders = 4
    let perSender = 5_000
    let done = startSenders(senders, sendingEach: perSender, to: subject)
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    probe.verify(senders: senders, perSender: perSender, completed: true)
  }

  func test_loneUnlimitedSubscriber_secondSubscriberComingAndGoing_everyValueOnceInOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = OverlapProbe()
    subject.subscribe(probe)
    let senders = 3
    let perSender = 4_000
    let stop = Atomic<Bool>(false)
    let done = startSenders(senders, sendingEach: perSender, to: subject)
    let churn = DispatchGroup()
    churn.enter()
    Thread {
      // Closes the lane (a second subscriber) and lets it open again (its cancel), over and over.
      while !stop.load(ordering: .relaxed) {
        let other = OverlapProbe()
        subject.subscribe(other)
        other.cancel()
      }
      churn.leave()
    }.start()
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    stop.store(true, ordering: .relaxed)
    XCTAssertEqual(churn.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    probe.verify(senders: senders, perSender: perSender, completed: true)
  }

  func test_loneUnlimitedSubscriber_reentrantSendsWhileOthersSend_queuedAfterCurrentValue() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = OverlapProbe()
    // Every hundredth value sends its echo (negated) from inside `receive(_:)`.
    probe.onValue = { value in
      if value > 0, value % 100 == 0 { subject.send(-value) }
    }
    subject.subscribe(probe)
    let senders = 3
    let perSender = 3_000
    let done = startSenders(senders, sendingEach: perSender, to: subject)
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    probe.verify(senders: senders, perSender: perSender, completed: true)
    XCTAssertEqual(probe.echoes, senders * perSender / 100)
  }

  func test_sendAndCompletionFromAnotherThread_duringDelivery_waitForIt() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = OverlapProbe()
    let inside = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    probe.onValue = { value in
      if value == 1 {
        inside.signal()
        proceed.wait()
      }
    }
    subject.subscribe(probe)
    let other = Thread {
      inside.wait()
      subject.send(2)
      subject.send(completion: .finished)
      subject.send(3)
      proceed.signal()
    }
    other.start()
    subject.send(1)  // returns after delivering 1, then 2 and the completion queued meanwhile
    XCTAssertEqual(probe.log, ["1", "2", "finished"])
  }

  func test_cancelFromAnotherThread_duringDelivery_laterValuesNotDelivered() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = OverlapProbe()
    let inside = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    probe.onValue = { value in
      if value == 1 {
        inside.signal()
        proceed.wait()
      }
    }
    subject.subscribe(probe)
    let other = Thread {
      inside.wait()
      probe.cancel()
      subject.send(2)
      proceed.signal()
    }
    other.start()
    subject.send(1)
    subject.send(3)
    XCTAssertEqual(probe.log, ["1"])
  }

  func test_secondSubscriber_receivesValuesSentAfterIt_thenFirstContinuesAlone() {
    let subject = PassthroughSubject<Int, Never>()
    let first = OverlapProbe()
    let second = OverlapProbe()
    subject.subscribe(first)
    subject.send(1)
    subject.subscribe(second)
    subject.send(2)
    second.cancel()
    subject.send(3)
    subject.send(completion: .finished)
    XCTAssertEqual(first.log, ["1", "2", "3", "finished"])
    XCTAssertEqual(second.log, ["2"])
  }

  func test_loneUnlimitedSubscriber_releasedAtCancel() {
    let subject = PassthroughSubject<Int, Never>()
    weak var released: OverlapProbe?
    do {
      let probe = OverlapProbe()
      released = probe
      subject.subscribe(probe)
      subject.send(1)
      probe.cancel()
    }
    XCTAssertNil(released)
    subject.send(2)
  }
}

/// A subscriber with unlimited demand that records what it receives and notes any delivery
/// that starts while another is still running (from any thread).
private final class OverlapProbe: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: `values`, `log`, `echoes` and `subscription` are guarded by
  // `lock`; `inside` is atomic; `onValue` is set before subscribing.
  typealias Input = Int
  typealias Failure = Never

  private let lock = NSLock()
  private let inside = Atomic<Bool>(false)
  private var overlaps = 0
  private var values: [Int] = []
  private var completions = 0
  private var subscription: Subscription?
  private(set) var echoes = 0
  var onValue: ((Int) -> Void)?

  var log: [String] {
    lock.lock()
    defer { lock.unlock() }
    return values.map(String.init) + Array(repeating: "finished", count: completions)
  }

  func receive(subscription: Subscription) {
    lock.lock()
    self.subscription = subscription
    lock.unlock()
    subscription.request(.unlimited)
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    let (entered, _) = inside.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
    lock.lock()
    if !entered { overlaps += 1 }
    values.append(input)
    if input < 0 { echoes += 1 }
    lock.unlock()
    onValue?(input)
    inside.store(false, ordering: .releasing)
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    let (entered, _) = inside.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
    lock.lock()
    if !entered { overlaps += 1 }
    completions += 1
    subscription = nil
    lock.unlock()
    inside.store(false, ordering: .releasing)
  }

  func cancel() {
    lock.lock()
    let subscription = self.subscription
    self.subscription = nil
    lock.unlock()
    subscription?.cancel()
  }

  /// No overlapping delivery; every value of every sender exactly once, each sender's in
  /// order; each echo (when `onValue` sends them) once, after the value that sent it; one
  /// completion if `completed`.
  func verify(senders: Int, perSender: Int, completed: Bool, file: StaticString = #filePath, line: UInt = #line) {
    lock.lock()
    defer { lock.unlock() }
    XCTAssertEqual(overlaps, 0, "deliveries overlapped", file: file, line: line)
    XCTAssertEqual(completions, completed ? 1 : 0, file: file, line: line)
    var next = [Int](repeating: 1, count: senders)
    var pendingEchoes: Set<Int> = []
    for value in values {
      if value < 0 {
        XCTAssertTrue(pendingEchoes.remove(-value) != nil, "echo \(value) without its value", file: file, line: line)
        continue
      }
      let sender = value / 1_000_000
      let seq = value % 1_000_000
      XCTAssertEqual(seq, next[sender], "sender \(sender) out of order", file: file, line: line)
      next[sender] = seq + 1
      if seq % 100 == 0, onValue != nil { pendingEchoes.insert(value) }
    }
    XCTAssertEqual(next, [Int](repeating: perSender + 1, count: senders), "values missing", file: file, line: line)
    XCTAssertEqual(pendingEchoes, [], "echoes missing", file: file, line: line)
  }
}
