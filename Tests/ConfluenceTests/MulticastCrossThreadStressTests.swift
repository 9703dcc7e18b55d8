import Dispatch
import Foundation
import Synchronization
import XCTest

@testable import Confluence

/// The relay that `multicast` subscribes to its subject for each subscriber lets go of its
/// downstream when it is cancelled, unless a call into the downstream is running: then the
/// call lets go when it returns. These check that rule when the cancel comes from another
/// thread than the one delivering, during a call and racing the values, where only the
/// process-wide barrier the cancel runs orders the delivering thread's count of the call
/// before the cancel's read of it.
final class MulticastCrossThreadStressTests: XCTestCase {
  final class Counter: Sendable {
    let received = Atomic<Int>(0)
  }

  /// A downstream that keeps its subscription (to cancel it) until that is cancelled, and
  /// may block inside one value until told to go on.
  final class Downstream: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    let lock = NSLock()
    private var held: Subscription?
    let blockOn: Int?
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    /// How many values arrived; an object of its own, so that a thread can read it without
    /// keeping the downstream alive.
    let counter = Counter()

    init(blockOn: Int?) { self.blockOn = blockOn }

    var subscription: Subscription? { lock.withLock { held } }

    func receive(subscription: Subscription) {
      lock.withLock { held = subscription }
      subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      counter.received.add(1, ordering: .relaxed)
      if input == blockOn {
        entered.signal()
        proceed.wait()
      }
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    /// Cancels the subscription and lets go of it (as a subscriber that keeps the let-go
    /// rule does), so that only the relay can still hold this object.
    func cancel() {
      let subscription = lock.withLock { () -> Subscription? in
        defer { held = nil }
        return held
      }
      subscription?.cancel()
    }
  }

  func test_cancelFromAnotherThread_whileTheDownstreamRuns_keepsItUntilTheCallReturns() {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.multicast { PassthroughSubject<Int, Never>() }.autoconnect()
    weak var weakDownstream: Downstream?
    let done = DispatchSemaphore(value: 0)
    var entered: DispatchSemaphore?
    var proceed: DispatchSemaphore?
    var relay: Subscription?
    do {
      let downstream = Downstream(blockOn: 1)
      weakDownstream = downstream
      entered = downstream.entered
      proceed = downstream.proceed
      shared.subscribe(downstream)
      relay = downstream.subscription
    }
    XCTAssertNotNil(relay)
    let sending = Unchecked(value: subject)
    Thread.detachNewThread {
      sending.value.send(0)
      sending.value.send(1)  // blocks inside the downstream
      done.signal()
    }
    entered?.wait()
    relay?.cancel()
    XCTAssertNotNil(weakDownstream, "the relay let go of its downstream while a call into it ran on another thread")
    proceed?.signal()
    done.wait()
    XCTAssertNil(weakDownstream, "the call that returned last did not let go of the downstream")
    withExtendedLifetime(relay) {}
  }

  /// Values from one thread while another cancels at a varying moment: once both stopped,
  /// the downstream is gone and no value reached it after the cancel returned (under the
  /// thread sanitizer, as CI runs this, no access may race the release either).
  func test_cancelRacingTheValues_theDownstreamGoes_andNoValueReachesItAfterTheCancel() {
    for round in 0..<300 {
      let subject = PassthroughSubject<Int, Never>()
      let shared = subject.share()
      weak var weakDownstream: Downstream?
      var relay: Subscription?
      var received: Int
      let countAfterCancel = Atomic<Int>(-1)
      let group = DispatchGroup()
      do {
        let downstream = Downstream(blockOn: nil)
        weakDownstream = downstream
        shared.subscribe(downstream)
        relay = downstream.subscription
        let sending = Unchecked(value: subject)
        // The threads hold the relay and the counter, never the downstream: a thread's
        // closure may be released after the thread signalled the group.
        let cancelling = Unchecked(value: (relay, downstream.counter))
        group.enter()
        Thread.detachNewThread {
          for value in 0..<(50 + round % 50) { sending.value.send(value) }
          group.leave()
        }
        group.enter()
        Thread.detachNewThread {
          for _ in 0..<(round % 40) { _ = Thread.isMainThread }
          cancelling.value.0?.cancel()
          countAfterCancel.store(cancelling.value.1.received.load(ordering: .relaxed), ordering: .relaxed)
          group.leave()
        }
        group.wait()
        received = downstream.counter.received.load(ordering: .relaxed)
      }
      let atCancel = countAfterCancel.load(ordering: .relaxed)
      // A value whose call had started before the cancel returned may still finish; none
      // may start after it.
      XCTAssertLessThanOrEqual(received, atCancel + 1, "round \(round): values reached the downstream after the cancel")
      XCTAssertNil(weakDownstream, "round \(round): the cancelled relay kept its downstream")
      withExtendedLifetime(relay) {}
    }
  }
}
