import CConfluenceSystem
import Dispatch
import Foundation
import Synchronization
import XCTest

@testable import Confluence

/// A sink delivers values with no fence (its `DeliveryGate`: the thread that delivers owns
/// it) and lets go of its closures when it ends. These check the cases the gate's protocol
/// exists for: a cancel from another thread than the one delivering, while a call into
/// `receiveValue` runs, just before one starts, and when none runs.
final class SinkCrossThreadStressTests: XCTestCase {
  /// What the closures capture: alive while the sink keeps them.
  final class Captured: @unchecked Sendable {
    var touched = 0
  }

  final class Flags: Sendable {
    let cancelReturned = Atomic<Bool>(false)
    let calls = Atomic<Int>(0)
    let callsAfterTheEnd = Atomic<Int>(0)
  }

  /// A sink whose closures alone keep a `Captured` alive and count their calls in `flags`.
  /// A value below zero counts as a call after the end; with `lateOnceCancelReturned`, so
  /// does any call that starts once `flags.cancelReturned` is set (read before anything
  /// else, so that a call the gate let through before the cancel returned is not counted).
  func countingSink(_ flags: Flags, lateOnceCancelReturned: Bool) -> (
    Subscribers.Sink<Int, Never>, WeakReference<Captured>
  ) {
    let captured = Captured()
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in captured.touched += 1 },
      receiveValue: { value in
        let late = lateOnceCancelReturned && flags.cancelReturned.load(ordering: .acquiring)
        if late || value < 0 { flags.callsAfterTheEnd.add(1, ordering: .relaxed) }
        flags.calls.add(1, ordering: .relaxed)
        captured.touched += 1
      })
    return (sink, WeakReference(captured))
  }

  func test_theProcessWideBarrier_isAvailableHere_soTheOwnersPathIsTheOneTested() throws {
    #if os(Linux)
      XCTAssertTrue(ProcessBarrier.isAvailable, "membarrier(PRIVATE_EXPEDITED) is missing: every delivery is fenced")
    #else
      throw XCTSkip("membarrier is Linux's")
    #endif
  }

  /// Whether the sink replaced its closures (a debug build retains a closure around each
  /// call, so the captured object's lifetime alone would not show an early release).
  func hasLetGo<Input>(_ sink: Subscribers.Sink<Input, Never>) -> Bool {
    sink.hasLetGoOfClosures
  }

  /// A `receiveValue` body that blocks on one value until the test lets it go: `entered`
  /// is signalled once the call is inside, `proceed` lets it return.
  final class BlockingValue: Sendable {
    let value: Int
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)

    init(_ value: Int) { self.value = value }

    func receive(_ received: Int) {
      guard received == value else { return }
      entered.signal()
      proceed.wait()
    }
  }

  /// Sends `value` to `sink` from a new thread, whose call into `receiveValue` blocks, and
  /// cancels from this thread meanwhile: the closures must stay until that call returns,
  /// and go then.
  func cancelWhileASendBlocks(
    _ sink: Subscribers.Sink<Int, Never>, sending: Unchecked<PassthroughSubject<Int, Never>>, value: Int,
    blocking: BlockingValue, file: StaticString = #filePath, line: UInt = #line
  ) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      sending.value.send(value)
      done.signal()
    }
    blocking.entered.wait()
    sink.cancel()
    XCTAssertFalse(hasLetGo(sink), "the closures went while another thread's call ran", file: file, line: line)
    blocking.proceed.signal()
    done.wait()
    XCTAssertTrue(hasLetGo(sink), "the closures stayed after the call returned", file: file, line: line)
  }

  func test_cancelFromAnotherThread_whileReceiveValueRuns_keepsTheClosuresUntilTheCallReturns() {
    let subject = PassthroughSubject<Int, Never>()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    weak var weakCaptured: Captured?
    let sink: Subscribers.Sink<Int, Never>
    do {
      let captured = Captured()
      weakCaptured = captured
      sink = Subscribers.Sink(receiveCompletion: { _ in }) { value in
        captured.touched += 1
        if value == 1 {
          entered.signal()
          proceed.wait()
          captured.touched += 1
        }
      }
    }
    subject.subscribe(sink)
    let sending = Unchecked(value: subject)
    Thread.detachNewThread {
      sending.value.send(0)  // claims the sink for this thread
      sending.value.send(1)  // blocks inside receiveValue
      done.signal()
    }
    entered.wait()
    sink.cancel()
    XCTAssertFalse(hasLetGo(sink), "the closures went while a call into them ran on another thread")
    XCTAssertNotNil(weakCaptured)
    proceed.signal()
    done.wait()
    XCTAssertTrue(hasLetGo(sink), "the delivery that ended last did not let go of the closures")
    XCTAssertNil(weakCaptured)
  }

  /// The gate moves to the thread that delivers (as when a serial queue changes worker
  /// threads): a cancel from a third thread must still wait for the call on the new owner.
  func test_deliveriesMoveToAnotherThread_aCancelFromAThirdWaitsForTheNewOwnersCall() {
    let subject = PassthroughSubject<Int, Never>()
    let blocking = BlockingValue(1)
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }) { blocking.receive($0) }
    subject.subscribe(sink)
    let sending = Unchecked(value: subject)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      sending.value.send(0)  // the first owner
      done.signal()
    }
    done.wait()
    // The next value takes the gate over, then blocks inside receiveValue.
    cancelWhileASendBlocks(sink, sending: sending, value: 1, blocking: blocking)
  }

  func test_cancelFromAnotherThread_betweenValues_letsGoAtOnce() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakCaptured: Captured?
    var cancellable: AnyCancellable?
    do {
      let captured = Captured()
      weakCaptured = captured
      cancellable = subject.sink { _ in captured.touched += 1 }
    }
    let sending = Unchecked(value: subject)
    let thread = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      for value in 0..<100 { sending.value.send(value) }
      thread.signal()
    }
    thread.wait()
    XCTAssertNotNil(weakCaptured)
    cancellable?.cancel()
    XCTAssertNil(weakCaptured, "a cancel from another thread with no delivery running must let go at once")
    _ = cancellable
  }

  /// Values from an owner thread and from a second thread (one at a time, as the contract
  /// says), while a third cancels at a varying moment. The closures must be gone once every
  /// sender stopped, a value sent straight to the sink afterwards must not reach them, and
  /// (under the address or thread sanitizer, as CI runs this) no call may touch them after
  /// they went.
  func test_cancelRacingDeliveriesFromTwoThreads_theClosuresGo_andNothingReachesThemAfter() {
    for round in 0..<300 {
      let subject = PassthroughSubject<Int, Never>()
      let flags = Flags()
      let (sink, captured) = countingSink(flags, lateOnceCancelReturned: false)
      subject.subscribe(sink)
      let sendLock = NSLock()
      let shared = Unchecked(value: (subject, sink))
      let cancelAfter = round % 50
      DispatchQueue.concurrentPerform(iterations: 3) { side in
        switch side {
        case 2:
          while flags.calls.load(ordering: .relaxed) < cancelAfter {}
          shared.value.1.cancel()
          flags.cancelReturned.store(true, ordering: .releasing)
        default:
          for value in 0..<200 {
            sendLock.lock()
            shared.value.0.send(value)
            sendLock.unlock()
            if flags.cancelReturned.load(ordering: .relaxed) && value % 7 == side { break }
          }
        }
      }
      XCTAssertNil(captured.object, "round \(round): the closures outlived the cancel")
      _ = sink.receive(-1)
      sink.receive(completion: .finished)
      XCTAssertEqual(flags.callsAfterTheEnd.load(ordering: .relaxed), 0, "round \(round)")
      withExtendedLifetime(sink) {}
    }
  }

  /// A sequence delivers to a sink as one run through its gate (one check per value): a
  /// cancel from another thread while a call runs must keep the closures until the run
  /// ends, and the run must stop at the next value.
  func test_sequenceRun_cancelFromAnotherThread_whileReceiveValueRuns_keepsTheClosuresUntilTheRunEnds() {
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let flags = Flags()
    weak var weakCaptured: Captured?
    let sink: Subscribers.Sink<Int, Never>
    do {
      let captured = Captured()
      weakCaptured = captured
      sink = Subscribers.Sink(receiveCompletion: { _ in captured.touched += 1 }) { value in
        captured.touched += 1
        flags.calls.add(1, ordering: .relaxed)
        if value == 5 {
          entered.signal()
          proceed.wait()
          captured.touched += 1
        }
      }
    }
    let subscribing = Unchecked(value: sink)
    Thread.detachNewThread {
      (0..<1_000).publisher.subscribe(subscribing.value)
      done.signal()
    }
    entered.wait()
    sink.cancel()
    XCTAssertFalse(hasLetGo(sink), "the closures went while the run was inside a call")
    XCTAssertNotNil(weakCaptured)
    proceed.signal()
    done.wait()
    XCTAssertEqual(flags.calls.load(ordering: .relaxed), 6, "the run went on after the cancel")
    XCTAssertTrue(hasLetGo(sink), "the run did not let go of the closures when it ended")
    XCTAssertNil(weakCaptured)
  }

  /// A cancel from another thread at a varying moment of a sequence's run: the closures go,
  /// no call starts after the cancel returned, and nothing reaches them afterwards.
  func test_sequenceRun_cancelRacingTheRun_theClosuresGo_andNoCallStartsAfterTheCancelReturned() {
    raceACancelAgainstARun { (0..<20_000).publisher.subscribe($0) }
  }

  /// The same through operators that pass the run on (`map`, `filter`, `scan`): the sink
  /// pulls the values through them, with the same two checks per value.
  func test_sequenceRunThroughOperators_cancelRacingTheRun_theClosuresGo_andNoCallStartsAfterTheCancelReturned() {
    raceACancelAgainstARun { sink in
      Publishers.Map(upstream: (0..<20_000).publisher) { $0 &* 3 }
        .filter { $0 & 1 == 0 || $0 & 1 == 1 }
        .scan(0) { _, value in value }
        .subscribe(sink)
    }
  }

  func raceACancelAgainstARun(_ subscribe: @escaping @Sendable (Subscribers.Sink<Int, Never>) -> Void) {
    for round in 0..<200 {
      let flags = Flags()
      let (sink, captured) = countingSink(flags, lateOnceCancelReturned: true)
      let shared = Unchecked(value: sink)
      let cancelAfter = 1 + (round % 20) * 50  // after the subscription: a cancel before it changes nothing
      DispatchQueue.concurrentPerform(iterations: 2) { side in
        if side == 1 {
          while flags.calls.load(ordering: .relaxed) < cancelAfter {}
          shared.value.cancel()
          flags.cancelReturned.store(true, ordering: .releasing)
        } else {
          subscribe(shared.value)
        }
      }
      XCTAssertNil(captured.object, "round \(round): the closures outlived the cancel")
      _ = sink.receive(-1)
      sink.receive(completion: .finished)
      // One call may have passed the gate before the cancel and read the flag after it.
      XCTAssertLessThanOrEqual(flags.callsAfterTheEnd.load(ordering: .relaxed), 1, "round \(round)")
      withExtendedLifetime(sink) {}
    }
  }

  // The gate claimed at subscription: the thread a sink's subscription arrives on owns the
  // gate before any value (`Subscribers.Sink.receive(subscription:)`).

  /// The thread the subscription arrived on owns the gate before any value, so that the
  /// first value on it takes the owner's path (no compare-and-exchange); the claim holds
  /// after that value.
  func test_subscription_claimsTheGateForItsThread() throws {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      throw XCTSkip("the locked build's gate has no owner")
    #else
      try checkSubscriptionClaimsTheGate()
    #endif
  }

  #if !CONFLUENCE_LOCKED_FAST_PATHS
    private func checkSubscriptionClaimsTheGate() throws {
      guard ProcessBarrier.isAvailable else { throw XCTSkip("no process-wide barrier: no thread owns a gate") }
      let subject = PassthroughSubject<Int, Never>()
      var received: [Int] = []
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }) { received.append($0) }
      XCTAssertEqual(sink.gate.owner.load(ordering: .relaxed), DeliveryGate.noOwner)
      subject.subscribe(sink)
      XCTAssertEqual(sink.gate.owner.load(ordering: .relaxed), confluence_thread_token())
      subject.send(1)
      XCTAssertEqual(sink.gate.owner.load(ordering: .relaxed), confluence_thread_token())
      XCTAssertEqual(received, [1])
      sink.cancel()
      XCTAssertTrue(hasLetGo(sink))
    }
  #endif

  /// Subscribed here, the first value arrives on another thread (which takes the gate over
  /// from this one) and blocks inside `receiveValue` while this thread cancels: the closures
  /// stay until that call returns, and go then.
  func test_subscribedHere_firstValueOnAnotherThread_aCancelHereWaitsForItsCall() {
    let subject = PassthroughSubject<Int, Never>()
    let blocking = BlockingValue(1)
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }) { blocking.receive($0) }
    subject.subscribe(sink)
    cancelWhileASendBlocks(sink, sending: Unchecked(value: subject), value: 1, blocking: blocking)
  }

  /// Subscribed here, cancelled from another thread before any value: the closures go at
  /// once (the canceller runs the barrier against this thread, which owns the gate and
  /// delivers nothing), and a value sent here afterwards reaches nothing.
  func test_subscribedHere_cancelFromAnotherThreadBeforeAnyValue_letsGoAtOnce() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakCaptured: Captured?
    let flags = Flags()
    let sink: Subscribers.Sink<Int, Never>
    do {
      let (made, captured) = countingSink(flags, lateOnceCancelReturned: true)
      sink = made
      weakCaptured = captured.object
    }
    subject.subscribe(sink)
    let cancelling = Unchecked(value: sink)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      cancelling.value.cancel()
      flags.cancelReturned.store(true, ordering: .releasing)
      done.signal()
    }
    done.wait()
    XCTAssertTrue(hasLetGo(sink))
    XCTAssertNil(weakCaptured, "the closures outlived a cancel with no delivery running")
    subject.send(1)
    XCTAssertEqual(flags.calls.load(ordering: .relaxed), 0)
  }
}
