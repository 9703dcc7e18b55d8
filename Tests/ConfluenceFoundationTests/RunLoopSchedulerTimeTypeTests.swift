import ConfluenceFoundation
import Foundation
import XCTest

final class RunLoopSchedulerTimeTypeTests: XCTestCase {
  typealias Time = RunLoop.SchedulerTimeType

  func test_date_roundTrips() {
    let date = Date(timeIntervalSinceReferenceDate: 1_000)
    var time = Time(date)
    XCTAssertEqual(time.date, date)
    time.date = Date(timeIntervalSinceReferenceDate: 5)
    XCTAssertEqual(time.date.timeIntervalSinceReferenceDate, 5)
  }

  func test_advancedAndDistance_countSeconds() {
    let start = Time(Date(timeIntervalSinceReferenceDate: 100))
    let later = start.advanced(by: .milliseconds(1_500))
    XCTAssertEqual(later.date.timeIntervalSinceReferenceDate, 101.5)
    XCTAssertEqual(start.distance(to: later), 1.5)
    XCTAssertEqual(later.distance(to: start), -1.5)
    XCTAssertEqual(start.advanced(by: -2).date.timeIntervalSinceReferenceDate, 98)
  }

  func test_strideable_comparesAndStrides() {
    let a = Time(Date(timeIntervalSinceReferenceDate: 0))
    let b = Time(Date(timeIntervalSinceReferenceDate: 1))
    XCTAssertLessThan(a, b)
    XCTAssertEqual(a, Time(Date(timeIntervalSinceReferenceDate: 0)))
    XCTAssertNotEqual(a, b)
    let steps = Array(stride(from: a, to: b, by: 0.25)).map(\.date.timeIntervalSinceReferenceDate)
    XCTAssertEqual(steps, [0, 0.25, 0.5, 0.75])
  }

  func test_hashable_sameInstantSameHash() {
    let set: Set<Time> = [
      Time(Date(timeIntervalSinceReferenceDate: 7)), Time(Date(timeIntervalSinceReferenceDate: 7)),
      Time(Date(timeIntervalSinceReferenceDate: 8)),
    ]
    XCTAssertEqual(set.count, 2)
  }

  func test_codable_roundTrips() throws {
    let times = [Time(Date(timeIntervalSinceReferenceDate: 12.5)), Time(Date(timeIntervalSinceReferenceDate: -3))]
    let decoded = try JSONDecoder().decode([Time].self, from: JSONEncoder().encode(times))
    XCTAssertEqual(decoded, times)
  }

  func test_now_followsTheWallClock() {
    let before = Date()
    let now = RunLoop.main.now
    let after = Date()
    XCTAssertLessThanOrEqual(before, now.date)
    XCTAssertLessThanOrEqual(now.date, after)
    XCTAssertEqual(RunLoop.main.minimumTolerance, .zero)
  }
}
