import Confluence
import XCTest

final class ImmediateSchedulerTests: XCTestCase {
  func test_schedule_runsAtOnce() {
    var ran: [String] = []
    let scheduler = ImmediateScheduler.shared
    scheduler.schedule { ran.append("now") }
    scheduler.schedule(after: scheduler.now.advanced(by: 10)) { ran.append("after") }
    let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ran.append("repeating") }
    cancellable.cancel()
    XCTAssertEqual(ran, ["now", "after", "repeating"])
  }

  func test_timeNeverMoves() {
    let now = ImmediateScheduler.shared.now
    XCTAssertEqual(now.distance(to: now.advanced(by: .seconds(5))), 0)
    XCTAssertEqual(ImmediateScheduler.shared.minimumTolerance, 0)
  }

  func test_strideArithmeticAndConversions() {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
    var stride: Stride = 3
    stride += 2
    XCTAssertEqual(stride.magnitude, 5)
    XCTAssertEqual((stride * 2).magnitude, 10)
    XCTAssertEqual(Stride(floatLiteral: 2.9).magnitude, 2)
    XCTAssertNil(Stride(exactly: UInt64.max))
    XCTAssertLessThan(Stride(1), Stride(2))
    // As Apple's: the scheduler has no time, so a stride of any unit of time is zero.
    XCTAssertEqual(
      [Stride.seconds(1.2), .seconds(1100), .milliseconds(123), .microseconds(51), .nanoseconds(23)], [0, 0, 0, 0, 0])
  }

  func test_repeatingSchedule_runsOnce_andReturnsTheEmptySubscription() {
    var fired = 0
    let cancellable = ImmediateScheduler.shared.schedule(after: ImmediateScheduler.shared.now, interval: 10) {
      fired += 1
    }
    XCTAssertEqual(fired, 1)
    XCTAssertEqual(String(describing: cancellable), "Empty")
  }
}
