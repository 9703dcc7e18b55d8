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
    XCTAssertLessThan(Stride.milliseconds(1), Stride.seconds(2))
  }
}
