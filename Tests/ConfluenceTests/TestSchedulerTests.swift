import Confluence
import ConfluenceTesting
import XCTest

final class TestSchedulerTests: XCTestCase {
  func test_advanceBy_runsOnlyDueActions_atTheirDeadlines() {
    let scheduler = VirtualTimeScheduler()
    var fired: [(String, VirtualTime)] = []
    scheduler.schedule(after: 10) { fired.append(("b", scheduler.now)) }
    scheduler.schedule(after: 5) { fired.append(("a", scheduler.now)) }
    scheduler.advance(by: 7)
    XCTAssertEqual(fired.map(\.0), ["a"])
    XCTAssertEqual(fired.map(\.1), [5])
    XCTAssertEqual(scheduler.now, 7)
    scheduler.advance(to: 10)
    XCTAssertEqual(fired.map(\.0), ["a", "b"])
    XCTAssertEqual(fired.map(\.1), [5, 10])
  }

  func test_equalDeadlines_runInSchedulingOrder() {
    let scheduler = VirtualTimeScheduler()
    var order: [Int] = []
    for index in 0..<5 { scheduler.schedule(after: 3) { order.append(index) } }
    scheduler.schedule { order.append(-1) }
    scheduler.advance(by: 3)
    XCTAssertEqual(order, [-1, 0, 1, 2, 3, 4])
  }

  func test_scheduleNow_waitsForAnAdvance() {
    let scheduler = VirtualTimeScheduler(initialClock: 50)
    var ran = false
    scheduler.schedule { ran = true }
    XCTAssertFalse(ran)
    scheduler.advance(by: 0)
    XCTAssertTrue(ran)
    XCTAssertEqual(scheduler.now, 50)
  }

  func test_actionsScheduledByActions_runAtTheirOwnTime_withinTheSameAdvance() {
    let scheduler = VirtualTimeScheduler()
    var fired: [VirtualTime] = []
    scheduler.schedule(after: 2) {
      fired.append(scheduler.now)
      scheduler.schedule(after: scheduler.now.advanced(by: 3)) { fired.append(scheduler.now) }
      scheduler.schedule { fired.append(scheduler.now) }
    }
    scheduler.advance(by: 10)
    XCTAssertEqual(fired, [2, 2, 5])
    XCTAssertEqual(scheduler.now, 10)
  }

  func test_pastDeadline_runsAtCurrentTime() {
    let scheduler = VirtualTimeScheduler(initialClock: 100)
    var fired: [VirtualTime] = []
    scheduler.schedule(after: 10) { fired.append(scheduler.now) }
    scheduler.advance(by: 1)
    XCTAssertEqual(fired, [100])
  }

  func test_advanceToEarlierTime_keepsTheClock() {
    let scheduler = VirtualTimeScheduler(initialClock: 100)
    scheduler.advance(to: 40)
    XCTAssertEqual(scheduler.now, 100)
  }

  func test_repeatingSchedule_firesEveryInterval_untilCancelled() {
    let scheduler = VirtualTimeScheduler()
    var fired: [VirtualTime] = []
    let token = scheduler.schedule(after: 10, interval: 5) { fired.append(scheduler.now) }
    scheduler.advance(to: 27)
    XCTAssertEqual(fired, [10, 15, 20, 25])
    token.cancel()
    scheduler.advance(to: 100)
    XCTAssertEqual(fired, [10, 15, 20, 25])
    XCTAssertEqual(scheduler.pendingActionCount, 0)
  }

  func test_repeatingSchedule_cancelFromInsideItsAction_stopsIt() {
    let scheduler = VirtualTimeScheduler()
    var count = 0
    var token: Cancellable?
    token = scheduler.schedule(after: 1, interval: 1) {
      count += 1
      if count == 3 { token?.cancel() }
    }
    scheduler.advance(to: 10)
    XCTAssertEqual(count, 3)
  }

  func test_run_emptiesTheQueue_andMovesTheClockToTheLastDeadline() {
    let scheduler = VirtualTimeScheduler()
    var fired: [VirtualTime] = []
    scheduler.schedule(after: 300) { fired.append(scheduler.now) }
    scheduler.schedule(after: 30) { fired.append(scheduler.now) }
    XCTAssertTrue(scheduler.run())
    XCTAssertEqual(fired, [30, 300])
    XCTAssertEqual(scheduler.now, 300)
    XCTAssertEqual(scheduler.executedActionCount, 2)
  }

  func test_run_isBounded_withRepeatingWork() {
    let scheduler = VirtualTimeScheduler()
    var count = 0
    let token = scheduler.schedule(after: 0, interval: 1) { count += 1 }
    XCTAssertFalse(scheduler.run(maxActions: 50))
    XCTAssertEqual(count, 50)
    token.cancel()
  }

  func test_releasingRepeatingToken_keepsItRunning_untilCancelled() {
    // AnyCancellable cancels on deinit, as Combine's does.
    let scheduler = VirtualTimeScheduler()
    var count = 0
    do { _ = scheduler.schedule(after: 0, interval: 1) { count += 1 } }
    scheduler.advance(to: 5)
    XCTAssertEqual(count, 0)
  }

  func test_cancelledWork_isReleased() {
    let scheduler = VirtualTimeScheduler()
    let tracker = LifetimeTracker()
    var token: Cancellable? = { [probe = tracker.make()] in
      scheduler.schedule(after: 10, interval: 10) { _ = probe }
    }()
    XCTAssertEqual(tracker.liveCount, 1)
    token?.cancel()
    token = nil
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_genericTimeType_standsInForAnotherScheduler() {
    let scheduler = TestScheduler<WallClockInstant, String>(now: WallClockInstant(nanoseconds: 1_000))
    var seen: [Int] = []
    scheduler.schedule(after: WallClockInstant(nanoseconds: 5_000), tolerance: .zero, options: "fast") {
      seen.append(scheduler.now.nanoseconds)
    }
    scheduler.advance(by: .microseconds(4))
    XCTAssertEqual(seen, [5_000])
    XCTAssertEqual(scheduler.scheduledOptions, ["fast"])
  }

  func test_minimumTolerance_isZero() {
    XCTAssertEqual(VirtualTimeScheduler().minimumTolerance, 0)
  }

  func test_virtualTimeConversions() {
    XCTAssertEqual(VirtualTimeInterval.seconds(2).ticks, 2_000_000_000)
    XCTAssertEqual(VirtualTimeInterval.seconds(0.5).ticks, 500_000_000)
    XCTAssertEqual(VirtualTimeInterval.milliseconds(3).ticks, 3_000_000)
    XCTAssertEqual(VirtualTimeInterval.microseconds(3).ticks, 3_000)
    XCTAssertEqual(VirtualTimeInterval.nanoseconds(3).ticks, 3)
    XCTAssertEqual(VirtualTime(10).distance(to: 4), -6)
    XCTAssertEqual(VirtualTime(10).advanced(by: 5), 15)
  }

  func test_concurrentScheduling_isSafe() {
    let scheduler = VirtualTimeScheduler()
    let counter = LifetimeTracker()
    DispatchQueue.concurrentPerform(iterations: 200) { index in
      scheduler.schedule(after: VirtualTime(index % 7)) { _ = counter.make() }
    }
    scheduler.run()
    XCTAssertEqual(counter.madeCount, 200)
  }
}

/// A time type of another shape than `VirtualTime`, as a real scheduler would have.
struct WallClockInstant: Strideable {
  var nanoseconds: Int
  func distance(to other: WallClockInstant) -> VirtualTimeInterval { .nanoseconds(other.nanoseconds - nanoseconds) }
  func advanced(by n: VirtualTimeInterval) -> WallClockInstant { WallClockInstant(nanoseconds: nanoseconds + n.ticks) }
}
