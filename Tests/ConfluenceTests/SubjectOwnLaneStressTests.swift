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
  func test_severalUnlimitedSubscribers_concurrentSenders_eachGetsEveryValueOnceWithoutOverlap() {
    let subject = PassthroughSubject<Int, Never>()
    let probes = (0..<3).map { _ in DeliveryProbe() }
    for probe in probes { subject.subscribe(probe) }
    let senders = 4
    let perSender = 4_000
    let done = DeliveryProbe.startSenders(senders, sendingEach: perSender, to: subject)
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    for probe in probes {
      probe.verify(senders: senders, perSender: perSender, completed: true)
    }
  }

  func test_subscribersComingAndGoing_betweenOneAndThree_theStayingOnesGetEveryValueOnceInOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let staying = (0..<2).map { _ in DeliveryProbe() }
    subject.subscribe(staying[0])
    let senders = 3
    let perSender = 3_000
    let stop = Atomic<Bool>(false)
    // The second staying subscriber joins once every sender has sent half of its values
    // (they wait for it there), so that its values start somewhere in each sequence.
    let halfwaySenders = Atomic<Int>(0)
    let joined = Atomic<Bool>(false)
    let done = DeliveryProbe.startSenders(senders, sendingEach: perSender, to: subject) {
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
        let visitors = (0...(rounds % 2)).map { _ in DeliveryProbe() }
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
    let echoing = DeliveryProbe()
    let listening = DeliveryProbe()
    // Every hundredth value sends its echo (negated) from inside `receive(_:)`.
    echoing.onValue = { value in
      if value > 0, value % 100 == 0 { subject.send(-value) }
    }
    subject.subscribe(echoing)
    subject.subscribe(listening)
    let senders = 3
    let perSender = 3_000
    let done = DeliveryProbe.startSenders(senders, sendingEach: perSender, to: subject)
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
    let blocking = DeliveryProbe()
    let cancelled = DeliveryProbe()
    let pause = blocking.pause(at: 2)
    subject.subscribe(blocking)
    subject.subscribe(cancelled)
    subject.send(1)
    let other = Thread {
      pause.waitUntilInside()
      cancelled.cancel()
      pause.resume()
    }
    other.start()
    subject.send(2)  // `cancelled` is reached after `blocking` returns: by then it is cancelled
    subject.send(4)
    XCTAssertEqual(blocking.log, ["1", "2", "4"])
    XCTAssertEqual(cancelled.log, ["1"])
    subject.send(completion: .finished)  // the probe and its subscription let go of each other
  }

  func test_cancelAndCompletionFromInsideADelivery_takeEffectForSubscribersNotYetReached() {
    let subject = PassthroughSubject<Int, Never>()
    let first = DeliveryProbe()
    let second = DeliveryProbe()
    let third = DeliveryProbe()
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
    let limited = DeliveryProbe(demand: .max(1), returning: .max(1))
    let unlimited = DeliveryProbe()
    let sending = DeliveryProbe()
    sending.onValue = { value in
      if value == 1 { subject.send(2) }
    }
    for probe in [limited, unlimited, sending] { subject.subscribe(probe) }
    subject.send(1)
    subject.send(3)
    XCTAssertEqual(limited.log, ["1", "2", "3"])
    XCTAssertEqual(unlimited.log, ["1", "2", "3"])
    XCTAssertEqual(sending.log, ["1", "2", "3"])
    subject.send(completion: .finished)  // the probes and their subscriptions let go of each other
  }

  func test_subscriberLeftAlone_keepsReceivingAfterTheOthersCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let probes = (0..<3).map { _ in DeliveryProbe() }
    for probe in probes { subject.subscribe(probe) }
    subject.send(1)
    probes[0].cancel()
    subject.send(2)
    probes[2].cancel()
    subject.send(3)
    let late = DeliveryProbe()
    subject.subscribe(late)
    subject.send(4)
    subject.send(completion: .finished)
    XCTAssertEqual(probes.map(\.log), [["1"], ["1", "2", "3", "4", "finished"], ["1", "2"]])
    XCTAssertEqual(late.log, ["4", "finished"])
  }

  func test_severalUnlimitedSubscribers_releasedAtCancel() {
    let subject = PassthroughSubject<Int, Never>()
    weak var released: DeliveryProbe?
    let staying = DeliveryProbe()
    subject.subscribe(staying)
    do {
      let probe = DeliveryProbe()
      released = probe
      subject.subscribe(probe)
      subject.send(1)
      subject.send(2)
      probe.cancel()
    }
    XCTAssertNil(released)
    subject.send(3)
    subject.send(completion: .finished)
    XCTAssertEqual(staying.log, ["1", "2", "3", "finished"])
  }
}
