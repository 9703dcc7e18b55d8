import CConfluenceSystem
@testable import Confluence
import Foundation
import XCTest

/// A subject's lone-subscriber lane bound to the thread that keeps sending (`SubjectLane`,
/// "Bound lanes"): when it binds, and that every operation which meets a bound lane —
/// a send, subscribe, cancel or completion from another thread, a send, cancel or
/// completion from inside the subscriber on the bound thread, a thread's send that finds
/// the lane bound to another thread — keeps the rules the unbound lane keeps. Each test
/// first checks that the lane is bound, so that it tests what it says.
final class SubjectLaneBindingTests: XCTestCase {
  /// Values sent before a test's own: enough to bind the lane.
  private let warmUp = Int(SubjectLane.bindingStreak(afterUnbindings: 0))

  private func bindingThread(of subject: PassthroughSubject<Int, Never>) -> UInt? {
    let word = subject.storage.lane.load(ordering: .relaxed)
    guard SubjectLane.isBound(word) else { return nil }
    return SubjectLaneBinding.bound(by: word).takeUnretainedValue().thread
  }

  /// Sends the warm-up values (1 ... warmUp) and checks that the lane is now bound to this
  /// thread.
  private func warmUp(
    _ subject: PassthroughSubject<Int, Never>, file: StaticString = #filePath, line: UInt = #line
  ) {
    if !ProcessBarrier.isAvailable { return }
    for value in 1...warmUp { subject.send(value) }
    XCTAssertEqual(bindingThread(of: subject), confluence_thread_token(), "not bound", file: file, line: line)
  }

  private var warmUpLog: [String] { (1...warmUp).map(String.init) }

  private func skipUnlessBindable() throws {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      throw XCTSkip("the locked build opens no lane")
    #else
      guard ProcessBarrier.isAvailable else { throw XCTSkip("no process-wide barrier: lanes are never bound") }
    #endif
  }

  func test_bindsAfterTheStreak_notBefore() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    subject.subscribe(probe)
    for value in 1..<warmUp {
      subject.send(value)
      XCTAssertNil(bindingThread(of: subject), "bound after \(value) values")
    }
    subject.send(warmUp)
    XCTAssertEqual(bindingThread(of: subject), confluence_thread_token())
    subject.send(warmUp + 1)
    subject.send(completion: .finished)
    XCTAssertEqual(probe.log, (1...(warmUp + 1)).map(String.init) + ["finished"])
  }

  func test_sendFromAnotherThread_closesTheBoundLane_andDoublesTheStreakNeeded() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    subject.subscribe(probe)
    warmUp(subject)
    let sent = DispatchSemaphore(value: 0)
    Thread {
      subject.send(-1)
      sent.signal()
    }.start()
    XCTAssertEqual(sent.wait(timeout: .now() + 10), .success)
    XCTAssertNil(bindingThread(of: subject))
    XCTAssertEqual(subject.storage.lock.withLock { subject.storage.laneUnbindings }, 1)
    subject.send(-2)
    XCTAssertEqual(probe.log, warmUpLog + ["-1", "-2"])
    // Binding again takes twice the streak, which began with -2.
    for value in 2..<(2 * warmUp) {
      subject.send(value)
      XCTAssertNil(bindingThread(of: subject), "bound again after \(value) values")
    }
    subject.send(2 * warmUp)
    XCTAssertEqual(bindingThread(of: subject), confluence_thread_token())
    // The subscriber keeps the subject alive until it completes or cancels (as Apple's).
    subject.send(completion: .finished)
  }

  func test_sendFromAnotherThread_duringABoundDelivery_waitsForIt_thenDeliversItself() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    let pause = probe.pause(at: -1)
    subject.subscribe(probe)
    warmUp(subject)
    let sent = DispatchSemaphore(value: 0)
    Thread {
      pause.waitUntilInside()
      Thread {
        subject.send(-2)
        sent.signal()
      }.start()
      XCTAssertEqual(sent.wait(timeout: .now() + 0.2), .timedOut, "send(-2) returned while -1 was being delivered")
      pause.resume()
    }.start()
    subject.send(-1)
    XCTAssertEqual(sent.wait(timeout: .now() + 10), .success)
    subject.send(completion: .finished)
    XCTAssertEqual(probe.log, warmUpLog + ["-1", "-2", "finished"])
  }

  func test_completionFromAnotherThread_duringABoundDelivery_isDeliveredWhenItReturns() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    let pause = probe.pause(at: -1)
    subject.subscribe(probe)
    warmUp(subject)
    Thread {
      pause.waitUntilInside()
      subject.send(completion: .finished)
      subject.send(-3)
      pause.resume()
    }.start()
    subject.send(-1)
    subject.send(-2)
    XCTAssertEqual(probe.log, warmUpLog + ["-1", "finished"])
  }

  func test_cancelFromAnotherThread_duringABoundDelivery_laterValuesNotDelivered() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    let pause = probe.pause(at: -1)
    subject.subscribe(probe)
    warmUp(subject)
    Thread {
      pause.waitUntilInside()
      probe.cancel()
      subject.send(-3)
      pause.resume()
    }.start()
    subject.send(-1)
    subject.send(-2)
    XCTAssertEqual(probe.log, warmUpLog + ["-1"])
  }

  func test_subscribeFromAnotherThread_whileBound_bothGetLaterValues() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let first = DeliveryProbe()
    let second = DeliveryProbe()
    subject.subscribe(first)
    warmUp(subject)
    let done = DispatchSemaphore(value: 0)
    Thread {
      subject.subscribe(second)
      done.signal()
    }.start()
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    XCTAssertNil(bindingThread(of: subject))
    subject.send(-1)
    second.cancel()
    subject.send(-2)
    subject.send(completion: .finished)
    XCTAssertEqual(first.log, warmUpLog + ["-1", "-2", "finished"])
    XCTAssertEqual(second.log, ["-1"])
  }

  func test_reentrantSendOnTheBoundThread_isDeliveredAfterTheCurrentValue() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    probe.onValue = { [weak subject] value in
      if value == -1 { subject?.send(-10) }
    }
    subject.subscribe(probe)
    warmUp(subject)
    subject.send(-1)
    subject.send(-2)
    subject.send(completion: .finished)
    XCTAssertEqual(probe.log, warmUpLog + ["-1", "-10", "-2", "finished"])
    // Closed by its own thread: no barrier, and binding needs no longer streak.
    XCTAssertEqual(subject.storage.lock.withLock { subject.storage.laneUnbindings }, 0)
  }

  func test_cancelFromInsideABoundDelivery_nothingAfter() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    probe.onValue = { [weak probe] value in
      if value == -1 { probe?.cancel() }
    }
    subject.subscribe(probe)
    warmUp(subject)
    subject.send(-1)
    subject.send(-2)
    XCTAssertEqual(probe.log, warmUpLog + ["-1"])
  }

  func test_completionFromInsideABoundDelivery_deliveredAfterIt() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    probe.onValue = { [weak subject] value in
      if value == -1 { subject?.send(completion: .finished) }
    }
    subject.subscribe(probe)
    warmUp(subject)
    subject.send(-1)
    subject.send(-2)
    XCTAssertEqual(probe.log, warmUpLog + ["-1", "finished"])
  }

  func test_aThreadThatIsNotBound_sendsThroughTheLock_andEveryValueArrivesOnce() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    subject.subscribe(probe)
    // Bound to a thread of its own, which then ends.
    let bound = DispatchSemaphore(value: 0)
    let count = warmUp
    Thread {
      for value in 1...count { subject.send(value) }
      bound.signal()
    }.start()
    XCTAssertEqual(bound.wait(timeout: .now() + 10), .success)
    XCTAssertNotNil(bindingThread(of: subject))
    XCTAssertNotEqual(bindingThread(of: subject), confluence_thread_token())
    subject.send(-1)
    subject.send(-2)
    subject.send(completion: .finished)
    XCTAssertEqual(probe.log, warmUpLog + ["-1", "-2", "finished"])
  }

  func test_atMostMaximumBindingsThreads() throws {
    try skipUnlessBindable()
    let subject = PassthroughSubject<Int, Never>()
    let probe = DeliveryProbe()
    subject.subscribe(probe)
    // Each thread sends a long streak in turn: each binds the lane (its close by the next
    // thread doubles the streak needed), until the subject has bound as many as it may. The
    // threads stay alive to the end, so that no two share a token.
    let threads = SubjectLane.maximumBindings + 2
    let finish = DispatchSemaphore(value: 0)
    var sent = 0
    for index in 0..<threads {
      // The first send of each thread but the first closes the lane, through the lock.
      let streak = Int(SubjectLane.bindingStreak(afterUnbindings: UInt8(index))) + (index == 0 ? 0 : 1)
      let done = DispatchSemaphore(value: 0)
      let first = sent
      Thread {
        for value in first..<(first + streak) { subject.send(value) }
        done.signal()
        finish.wait()
      }.start()
      XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
      sent += streak
      if index < SubjectLane.maximumBindings {
        XCTAssertNotNil(bindingThread(of: subject), "thread \(index) did not bind the lane")
      }
    }
    for _ in 0..<threads { finish.signal() }
    subject.send(completion: .finished)
    XCTAssertEqual(subject.storage.lock.withLock { subject.storage.laneBindingCount }, SubjectLane.maximumBindings)
    XCTAssertEqual(probe.log, (0..<sent).map(String.init) + ["finished"])
  }
}
