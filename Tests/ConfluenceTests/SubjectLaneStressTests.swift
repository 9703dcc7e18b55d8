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
  func test_loneUnlimitedSubscriber_concurrentSenders_deliveriesNeverOverlap() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    subject.subscribe(probe)
    let senders = 4
    let perSender = 5_000
    let done = DeliveryProbe.startSenders(senders, sendingEach: perSender, to: subject)
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    probe.verify(senders: senders, perSender: perSender, completed: true)
  }

  func test_loneUnlimitedSubscriber_secondSubscriberComingAndGoing_everyValueOnceInOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    subject.subscribe(probe)
    let senders = 3
    let perSender = 4_000
    let stop = Atomic<Bool>(false)
    let done = DeliveryProbe.startSenders(senders, sendingEach: perSender, to: subject)
    let churn = DispatchGroup()
    churn.enter()
    Thread {
      // Closes the lane (a second subscriber) and lets it open again (its cancel), over and over.
      while !stop.load(ordering: .relaxed) {
        let other = DeliveryProbe()
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
    let probe = DeliveryProbe()
    // Every hundredth value sends its echo (negated) from inside `receive(_:)`.
    probe.onValue = { value in
      if value > 0, value % 100 == 0 { subject.send(-value) }
    }
    subject.subscribe(probe)
    let senders = 3
    let perSender = 3_000
    let done = DeliveryProbe.startSenders(senders, sendingEach: perSender, to: subject)
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    probe.verify(senders: senders, perSender: perSender, completed: true, echoesFollowTheirValue: true)
    XCTAssertEqual(probe.echoes, senders * perSender / 100)
  }

  /// A thread that keeps sending gets the lone lane bound to it (`SubjectLane`, "Bound
  /// lanes"); another thread sends now and then (closing the bound lane, with the
  /// process-wide barrier) and a third subscribes and cancels a second subscriber: the
  /// lone subscriber still gets every value once, each sender's in order, never two at once.
  func test_boundLane_oneThreadKeepsSending_othersSendAndSubscribeNowAndThen_everyValueOnceInOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    subject.subscribe(probe)
    let perSender = 6_000
    let stop = Atomic<Bool>(false)
    let done = DispatchGroup()
    for sender in 0..<2 {
      done.enter()
      Thread {
        for seq in 1...perSender {
          subject.send(sender * 1_000_000 + seq)
          // Sender 1 sends in short bursts, so that sender 0 builds streaks between them.
          if sender == 1, seq % 50 == 0 { usleep(200) }
        }
        done.leave()
      }.start()
    }
    let churn = DispatchGroup()
    churn.enter()
    Thread {
      while !stop.load(ordering: .relaxed) {
        usleep(500)
        let other = DeliveryProbe()
        subject.subscribe(other)
        other.cancel()
      }
      churn.leave()
    }.start()
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    stop.store(true, ordering: .relaxed)
    XCTAssertEqual(churn.wait(timeout: .now() + 60), .success)
    subject.send(completion: .finished)
    probe.verify(senders: 2, perSender: perSender, completed: true)
  }

  func test_sendFromAnotherThread_duringDelivery_waitsForIt_thenDeliversItself() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    let pause = probe.pause(at: 1)
    subject.subscribe(probe)
    let sent = DispatchSemaphore(value: 0)
    let other = Thread {
      pause.waitUntilInside()
      let sender = Thread {
        subject.send(2)
        sent.signal()
      }
      sender.start()
      XCTAssertEqual(sent.wait(timeout: .now() + 0.2), .timedOut, "send(2) returned while 1 was being delivered")
      pause.resume()
    }
    other.start()
    subject.send(1)
    XCTAssertEqual(sent.wait(timeout: .now() + 10), .success)
    subject.send(completion: .finished)
    XCTAssertEqual(probe.log, ["1", "2", "finished"])
  }

  func test_completionFromAnotherThread_duringDelivery_isDeliveredWhenItReturns() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    let pause = probe.pause(at: 1)
    subject.subscribe(probe)
    let other = Thread {
      pause.waitUntilInside()
      subject.send(completion: .finished)
      subject.send(3)
      pause.resume()
    }
    other.start()
    subject.send(1)  // returns after delivering 1, then the completion queued meanwhile
    XCTAssertEqual(probe.log, ["1", "finished"])
  }

  func test_cancelFromAnotherThread_duringDelivery_laterValuesNotDelivered() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    let pause = probe.pause(at: 1)
    subject.subscribe(probe)
    let other = Thread {
      pause.waitUntilInside()
      probe.cancel()
      subject.send(2)
      pause.resume()
    }
    other.start()
    subject.send(1)
    subject.send(3)
    XCTAssertEqual(probe.log, ["1"])
  }

  func test_secondSubscriber_receivesValuesSentAfterIt_thenFirstContinuesAlone() {
    let subject = PassthroughSubject<Int, Never>()
    let first = DeliveryProbe()
    let second = DeliveryProbe()
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
    weak var released: DeliveryProbe?
    do {
      let probe = DeliveryProbe()
      released = probe
      subject.subscribe(probe)
      subject.send(1)
      probe.cancel()
    }
    XCTAssertNil(released)
    subject.send(2)
  }
}
