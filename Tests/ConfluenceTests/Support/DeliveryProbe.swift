import Confluence
import Foundation
import Synchronization
import XCTest

/// A subscriber for the subject stress tests: records what it receives and notes any
/// delivery that starts while another is still running (from any thread). Unlimited demand
/// unless told otherwise. Values are `sender * 1_000_000 + sequence number`; negative ones
/// are echoes (see `onValue`). It holds its subscription until the completion or
/// ``cancel()``, and the subscription holds it: a test completes or cancels every probe, or
/// the two keep each other alive past the test (CI's leak check reports them).
final class DeliveryProbe: Subscriber, Cancellable, @unchecked Sendable {
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

  /// Starts `senders` threads, each sending `perSender` values to `subject` (sender `k`
  /// sends `k * 1_000_000 + 1`, `+ 2`, …); the group is left when all are done.
  /// `halfway`, if given, runs on each sender's thread after it sent half of its values.
  static func startSenders(
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

  /// Makes the delivery of `value` wait, once inside `receive(_:)`, until the returned
  /// pause is resumed; `waitUntilInside()` returns once it is there. (Replaces `onValue`.)
  func pause(at value: Int) -> Pause {
    let pause = Pause()
    onValue = { received in
      if received == value {
        pause.inside.signal()
        pause.proceed.wait()
      }
    }
    return pause
  }

  /// See ``pause(at:)``.
  final class Pause: Sendable {
    fileprivate let inside = DispatchSemaphore(value: 0)
    fileprivate let proceed = DispatchSemaphore(value: 0)

    func waitUntilInside() { inside.wait() }

    func resume() { proceed.signal() }
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
    let next = checkOrder(
      senders: senders, completed: completed, echoesFollowTheirValue: echoesFollowTheirValue,
      startingAnywhere: false, file: file, line: line)
    XCTAssertEqual(next, [Int](repeating: perSender + 1, count: senders), "values missing", file: file, line: line)
  }

  /// As ``verify(senders:perSender:completed:echoesFollowTheirValue:file:line:)`` for a
  /// subscriber that joined while the senders were running: each sender's values from its
  /// first one received on, with no gap, up to the last.
  func verifyInOrder(senders: Int, perSender: Int, completed: Bool, file: StaticString = #filePath, line: UInt = #line)
  {
    let next = checkOrder(
      senders: senders, completed: completed, echoesFollowTheirValue: false,
      startingAnywhere: true, file: file, line: line)
    XCTAssertEqual(
      next, [Int](repeating: perSender + 1, count: senders), "values missing at the end", file: file, line: line)
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
