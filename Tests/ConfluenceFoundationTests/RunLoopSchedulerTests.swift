import ConfluenceFoundation
import Foundation
import XCTest

final class RunLoopSchedulerTests: XCTestCase {
  func test_schedule_runsOnlyWhenTheRunLoopRuns() {
    let runLoop = RunLoop.current
    let ran = expectation(description: "ran")
    var onThisLoop = false
    runLoop.schedule {
      onThisLoop = RunLoop.current === runLoop
      ran.fulfill()
    }
    XCTAssertFalse(onThisLoop, "ran before the run loop ran")
    wait(for: [ran], timeout: 1)  // runs the current run loop
    XCTAssertTrue(onThisLoop)
  }

  func test_schedule_keepsOrder() {
    let runLoop = RunLoop.current
    var order: [Int] = []
    let done = expectation(description: "all ran")
    for index in 0..<50 {
      runLoop.schedule(options: nil) {
        order.append(index)
        if order.count == 50 { done.fulfill() }
      }
    }
    wait(for: [done], timeout: 1)
    XCTAssertEqual(order, Array(0..<50))
  }

  func test_schedule_fromAnotherThread_wakesASleepingRunLoop() throws {
    // The loop's passes last 5 s: only a wake-up runs the action within the timeout.
    let loopThread = RunLoopThread(passLength: 5)
    defer { loopThread.stop() }
    let runLoop = loopThread.runLoop
    // Let the loop fall asleep in its first pass.
    Thread.sleep(forTimeInterval: 0.05)
    let ran = expectation(description: "ran on the loop's thread")
    let start = DispatchTime.now()
    var onLoopThread = false
    runLoop.schedule {
      onLoopThread = !Thread.isMainThread && RunLoop.current === runLoop
      ran.fulfill()
    }
    wait(for: [ran], timeout: 1)
    XCTAssertTrue(onLoopThread)
    XCTAssertLessThan(secondsSince(start), 1)
    loopThread.stop()
    // Wake it once more so it sees `stop()` now rather than at the end of its pass.
    runLoop.schedule {}
  }

  func test_scheduleAfter_firesAfterTheDate_onAnotherThreadsLoop() {
    let loopThread = RunLoopThread(passLength: 5)
    defer { loopThread.stop() }
    let runLoop = loopThread.runLoop
    let ran = expectation(description: "ran")
    let start = DispatchTime.now()
    var elapsed = 0.0
    runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(50)), tolerance: .zero, options: nil) {
      elapsed = secondsSince(start)
      ran.fulfill()
    }
    wait(for: [ran], timeout: 1)
    XCTAssertGreaterThanOrEqual(elapsed, 0.049)
    runLoop.schedule {}
  }

  func test_scheduleAfter_runsInDateOrder() {
    let runLoop = RunLoop.current
    var order: [String] = []
    let done = expectation(description: "all ran")
    done.expectedFulfillmentCount = 3
    let now = runLoop.now
    runLoop.schedule(after: now.advanced(by: .milliseconds(60))) {
      order.append("60 ms")
      done.fulfill()
    }
    runLoop.schedule(after: now.advanced(by: .milliseconds(20)), tolerance: .milliseconds(5)) {
      order.append("20 ms")
      done.fulfill()
    }
    runLoop.schedule(after: now.advanced(by: -1)) {
      order.append("past")
      done.fulfill()
    }
    wait(for: [done], timeout: 1)
    XCTAssertEqual(order, ["past", "20 ms", "60 ms"])
  }

  func test_repeating_firesSeveralTimes_thenStopsAfterCancel() {
    let runLoop = RunLoop.current
    var ticks = 0
    let threeTicks = expectation(description: "three ticks")
    var cancellable: Cancellable?
    cancellable = runLoop.schedule(after: runLoop.now, interval: .milliseconds(20), tolerance: .zero) {
      ticks += 1
      if ticks == 3 {
        cancellable?.cancel()
        threeTicks.fulfill()
      }
    }
    wait(for: [threeTicks], timeout: 1)
    let noMoreTicks = expectation(description: "no tick after cancel")
    noMoreTicks.isInverted = true
    runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(100))) {
      if ticks > 3 { noMoreTicks.fulfill() }
    }
    wait(for: [noMoreTicks], timeout: 0.15)
    XCTAssertEqual(ticks, 3)
  }

  func test_repeating_releasingTheCancellableStopsIt() {
    let runLoop = RunLoop.current
    var ticks = 0
    var cancellable: Cancellable? = runLoop.schedule(after: runLoop.now, interval: .milliseconds(10)) { ticks += 1 }
    XCTAssertNotNil(cancellable)
    cancellable = nil
    let ticked = expectation(description: "a tick after release")
    ticked.isInverted = true
    runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(50))) {
      if ticks > 0 { ticked.fulfill() }
    }
    wait(for: [ticked], timeout: 0.1)
    XCTAssertEqual(ticks, 0)
  }

  // "Combine in Action", chapter 11, "Using RunLoop": a repeating run-loop timer, cancelled by a
  // second scheduled action. The book fires every second and cancels after 3 s; here the
  // interval is 100 ms and the cancel comes after 250 ms: fired at 0, 100 and 200 ms.
  func test_book_runLoopTimer_cancelledByAScheduledAction() {
    let runLoop = RunLoop.main
    var output: [String] = []

    let subscription = runLoop.schedule(
      after: runLoop.now,
      interval: .milliseconds(100),
      tolerance: .milliseconds(10)
    ) {
      output.append("Timer fired")
    }

    let cancelled = expectation(description: "cancelled")
    runLoop.schedule(after: .init(Date(timeIntervalSinceNow: 0.25))) {
      subscription.cancel()
      cancelled.fulfill()
    }

    wait(for: [cancelled], timeout: 1)
    XCTAssertEqual(output, ["Timer fired", "Timer fired", "Timer fired"])
    let afterCancel = expectation(description: "fired after cancel")
    afterCancel.isInverted = true
    runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(150))) {
      if output.count > 3 { afterCancel.fulfill() }
    }
    wait(for: [afterCancel], timeout: 0.2)
    XCTAssertEqual(output.count, 3)
  }
}
