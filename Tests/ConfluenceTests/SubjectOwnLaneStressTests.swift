import Confluence
import Foundation
import Synchronization
import XCTest

/// The rules a subject keeps when several of its subscribers have unlimited demand (the
/// case it serves through each subscriber's own lane, with a compare-and-exchange instead
/// of a critical section per subscriber): deliveries to one subscriber never overlap,
/// whatever sends, subscribes, cancels or completes meanwhile and from whichever thread;
/// every value reaches every subscriber that was there when it was sent, once, each
/// sender's in order; a cancel or a completion made from inside a delivery takes effect for
/// the subscribers not yet reached; a subscriber with limited demand beside them has its
/// returned demand in place before anything else is sent. `.ci/run` runs it under the
/// thread sanitizer with the other stress tests.
final class SubjectOwnLaneStressTests: XCTestCase {
  /// Starts `senders` threads, each sending `perSender` values to `subject` (sender `k`
  /// sends `k * 1_000_000 + 1`, `+ 2`, …); the group is left when all are done.
  /// `halfway`, if given, runs on each sender's thread after it sent half of its values.
  private func startSenders(
    _ senders: Int, sendingEach perSender: Int, to subject: PassthroughSubject<Int, Never>,
    halfway: (@Sendable () -> Void)? = nil
  ) -> DispatchGroup {
    let done = DispatchGroup()
    for sender in 0..<senders {
      done.enter()
      Thread {
        for seq in 1...perSender {
          subject.send(sender * 1_000_000 + seq)
          if seq == perSender / 2 { halfway?() }
        }
        done.leave()
      }.start()
    }
    return done
  }

  func test_severalUnlimitedSubscribers_concurrentSenders_eachGetsEveryValueOnceWithoutOverlap() {
    let subject = PassthroughSubject<Int, Never>()
    let probes = (0..<3).map { _ in LaneProbe() }
    for probe in probes { subject.subscribe(probe) }
    let senders = 4
    let perSender = 4_000
    let done = startSenders(senders, sendingEach: perSender, to: subject)
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    for probe in probes {
      probe.verify(senders: senders, perSender: perSender, completed: true)
    }
  }

  func test_subscribersComingAndGoing_betweenOneAndThree_theStayingOnesGetEveryValueOnceInOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let staying = (0..<2).map { _ in LaneProbe() }
    subject.subscribe(staying[0])
    let senders = 3
    let perSender = 3_000
    let stop = Atomic<Bool>(false)
    // The second staying subscriber joins once every sender has sent half of its values
    // (they wait for it there), so that its values start somewhere in each sequence.
    let halfwaySenders = Atomic<Int>(0)
    let joined = Atomic<Bool>(false)
    let done = startSenders(senders, sendingEach: perSender, to: subject) {
      halfwaySenders.add(1, ordering: .acquiringAndReleasing)
      while !joined.load(ordering: .acquiring) { usleep(100) }
    }
    let churn = DispatchGroup()
    churn.enter()
    Thread {
      // The list goes from one subscriber (the subject's lone lane) to two or three (each
      // subscriber's own lane) and back, over and over.
      var rounds = 0
      while !stop.load(ordering: .relaxed) {
        let visitors = (0...(rounds % 2)).map { _ in LaneProbe() }
        for visitor in visitors { subject.subscribe(visitor) }
        for visitor in visitors { visitor.cancel() }
        rounds += 1
        if !joined.load(ordering: .relaxed), halfwaySenders.load(ordering: .acquiring) == senders {
          subject.subscribe(staying[1])
          joined.store(true, ordering: .releasing)
        }
      }
      churn.leave()
    }.start()
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    stop.store(true, ordering: .relaxed)
    XCTAssertEqual(churn.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    staying[0].verify(senders: senders, perSender: perSender, completed: true)
    // Joined half-way: every value from some point on, per sender, in order, once.
    staying[1].verifyInOrder(senders: senders, perSender: perSender, completed: true)
  }

  func test_reentrantEchoesWhileOthersSend_everySubscriberGetsEachEchoOnce() {
    let subject = PassthroughSubject<Int, Never>()
    let echoing = LaneProbe()
    let listening = LaneProbe()
    // Every hundredth value sends its echo (negated) from inside `receive(_:)`.
    echoing.onValue = { value in
      if value > 0, value % 100 == 0 { subject.send(-value) }
    }
    subject.subscribe(echoing)
    subject.subscribe(listening)
    let senders = 3
    let perSender = 3_000
    let done = startSenders(senders, sendingEach: perSender, to: subject)
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    echoing.verify(senders: senders, perSender: perSender, completed: true, echoesFollowTheirValue: true)
    // The listener may see an echo before the value that caused it (the echo is sent while
    // that value is on its way to the listener), as with Apple's subjects.
    listening.verify(senders: senders, perSender: perSender, completed: true)
    XCTAssertEqual(echoing.echoes, senders * perSender / 100)
    XCTAssertEqual(listening.echoes, senders * perSender / 100)
  }

  func test_cancelFromAnotherThread_duringAnotherSubscribersDelivery_laterValuesNotDelivered() {
    let subject = PassthroughSubject<Int, Never>()
    let blocking = LaneProbe()
    let cancelled = LaneProbe()
    let inside = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    blocking.onValue = { value in
      if value == 2 {
        inside.signal()
        proceed.wait()
      }
    }
    subject.subscribe(blocking)
    subject.subscribe(cancelled)
    subject.send(1)
    let other = Thread {
      inside.wait()
      cancelled.cancel()
      subject.send(3)
      proceed.signal()
    }
    other.start()
    subject.send(2)  // `cancelled` is reached after `blocking` returns: by then it is cancelled
    subject.send(4)
    XCTAssertEqual(blocking.log, ["1", "2", "3", "4"])
    XCTAssertEqual(cancelled.log, ["1"])
  }

  func test_cancelAndCompletionFromInsideADelivery_takeEffectForSubscribersNotYetReached() {
    let subject = PassthroughSubject<Int, Never>()
    let first = LaneProbe()
    let second = LaneProbe()
    let third = LaneProbe()
    first.onValue = { value in
      if value == 2 { third.cancel() }
      if value == 3 { subject.send(completion: .finished) }
    }
    for probe in [first, second, third] { subject.subscribe(probe) }
    subject.send(1)
    subject.send(2)
    subject.send(3)
    subject.send(4)
    XCTAssertEqual(first.log, ["1", "2", "3", "finished"])
    XCTAssertEqual(second.log, ["1", "2", "finished"])
    XCTAssertEqual(third.log, ["1"])
  }

  func test_limitedSubscriberBesideLanes_returnedDemandInPlaceBeforeAReentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    let limited = LaneProbe(demand: .max(1), returning: .max(1))
    let unlimited = LaneProbe()
    let sending = LaneProbe()
    sending.onValue = { value in
      if value == 1 { subject.send(2) }
    }
    for probe in [limited, unlimited, sending] { subject.subscribe(probe) }
    subject.send(1)
    subject.send(3)
    XCTAssertEqual(limited.log, ["1", "2", "3"])
    XCTAssertEqual(unlimited.log, ["1", "2", "3"])
    XCTAssertEqual(sending.log, ["1", "2", "3"])
  }

  func test_subscriberLeftAlone_keepsReceivingAfterTheOthersCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let probes = (0..<3).map { _ in LaneProbe() }
    for probe in probes { subject.subscribe(probe) }
    subject.send(1)
    probes[0].cancel()
    subject.send(2)
    probes[2].cancel()
    subject.send(3)
    let late = LaneProbe()
    subject.subscribe(late)
    subject.send(4)
    subject.send(completion: .finished)
    XCTAssertEqual(probes.map(\.log), [["1"], ["1", "2", "3", "4", "finished"], ["1", "2"]])
    XCTAssertEqual(late.log, ["4", "finished"])
  }

  func test_severalUnlimitedSubscribers_releasedAtCancel() {
    let subject = PassthroughSubject<Int, Never>()
    weak var released: LaneProbe?
    let staying = LaneProbe()
    subject.subscribe(staying)
    do {
      let probe = LaneProbe()
      released = probe
      subject.subscribe(probe)
      subject.send(1)
      subject.send(2)
      probe.cancel()
    }
    XCTAssertNil(released)
    subject.send(3)
    XCTAssertEqual(staying.log, ["1", "2", "3"])
  }
}

/// A subscriber that records what it receives and notes any delivery that starts while
/// another is still running (from any thread). Unlimited demand unless told otherwise.
private final class LaneProbe: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: `values`, `completions`, `overlaps`, `echoes` and `subscription`
  // are guarded by `lock`; `inside` is atomic; `onValue` is set before subscribing.
  typealias Input = Int
  typealias Failure = Never

  private let lock = NSLock()
  private let inside = Atomic<Bool>(false)
  private let initialDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private var overlaps = 0
  private var values: [Int] = []
  private var completions = 0
  private var subscription: Subscription?
  private var echoCount = 0
  var onValue: ((Int) -> Void)?

  init(demand: Subscribers.Demand = .unlimited, returning demandPerValue: Subscribers.Demand = .none) {
    initialDemand = demand
    self.demandPerValue = demandPerValue
  }

  var log: [String] {
    lock.lock()
    defer { lock.unlock() }
    return values.map(String.init) + Array(repeating: "finished", count: completions)
  }

  var echoes: Int {
    lock.lock()
    defer { lock.unlock() }
    return echoCount
  }

  func receive(subscription: Subscription) {
    lock.lock()
    self.subscription = subscription
    lock.unlock()
    subscription.request(initialDemand)
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    let (entered, _) = inside.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
    lock.lock()
    if !entered { overlaps += 1 }
    values.append(input)
    if input < 0 { echoCount += 1 }
    lock.unlock()
    onValue?(input)
    if entered { inside.store(false, ordering: .releasing) }
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Never>) {
    let (entered, _) = inside.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
    lock.lock()
    if !entered { overlaps += 1 }
    completions += 1
    subscription = nil
    lock.unlock()
    if entered { inside.store(false, ordering: .releasing) }
  }

  func cancel() {
    lock.lock()
    let subscription = self.subscription
    self.subscription = nil
    lock.unlock()
    subscription?.cancel()
  }

  /// No overlapping delivery; every value of every sender exactly once, each sender's in
  /// order; one completion if `completed`. Echoes (negative values) are counted; with
  /// `echoesFollowTheirValue`, each must come after the value that sent it.
  func verify(
    senders: Int, perSender: Int, completed: Bool, echoesFollowTheirValue: Bool = false,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let next = checkOrder(senders: senders, completed: completed, echoesFollowTheirValue: echoesFollowTheirValue,
      startingAnywhere: false, file: file, line: line)
    XCTAssertEqual(next, [Int](repeating: perSender + 1, count: senders), "values missing", file: file, line: line)
  }

  /// As ``verify(senders:perSender:completed:echoesFollowTheirValue:file:line:)`` for a
  /// subscriber that joined while the senders were running: each sender's values from its
  /// first one received on, with no gap, up to the last.
  func verifyInOrder(senders: Int, perSender: Int, completed: Bool, file: StaticString = #filePath, line: UInt = #line)
  {
    let next = checkOrder(senders: senders, completed: completed, echoesFollowTheirValue: false,
      startingAnywhere: true, file: file, line: line)
    XCTAssertEqual(next, [Int](repeating: perSender + 1, count: senders), "values missing at the end", file: file, line: line)
  }

  private func checkOrder(
    senders: Int, completed: Bool, echoesFollowTheirValue: Bool, startingAnywhere: Bool, file: StaticString, line: UInt
  ) -> [Int] {
    lock.lock()
    defer { lock.unlock() }
    XCTAssertEqual(overlaps, 0, "deliveries overlapped", file: file, line: line)
    XCTAssertEqual(completions, completed ? 1 : 0, file: file, line: line)
    var next = [Int](repeating: startingAnywhere ? 0 : 1, count: senders)
    var seen: Set<Int> = []
    for value in values {
      if value < 0 {
        if echoesFollowTheirValue {
          XCTAssertTrue(seen.contains(-value), "echo \(value) before its value", file: file, line: line)
        }
        continue
      }
      seen.insert(value)
      let sender = value / 1_000_000
      let seq = value % 1_000_000
      if next[sender] == 0 { next[sender] = seq }  // a late subscriber's first value
      XCTAssertEqual(seq, next[sender], "sender \(sender) out of order", file: file, line: line)
      next[sender] = seq + 1
    }
    return next
  }
}
