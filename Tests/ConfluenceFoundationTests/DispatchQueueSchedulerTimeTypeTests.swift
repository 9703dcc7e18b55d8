import ConfluenceFoundation
import Dispatch
import Foundation
import XCTest

final class DispatchQueueSchedulerTimeTypeTests: XCTestCase {
  typealias Time = DispatchQueue.SchedulerTimeType

  func test_dispatchTime_roundTrips() {
    let time = Time(DispatchTime(uptimeNanoseconds: 1_234))
    XCTAssertEqual(time.dispatchTime.uptimeNanoseconds, 1_234)
    var changed = time
    changed.dispatchTime = DispatchTime(uptimeNanoseconds: 99)
    XCTAssertEqual(changed.dispatchTime.uptimeNanoseconds, 99)
  }

  func test_advancedAndDistance_areExactNanoseconds() {
    let start = Time(DispatchTime(uptimeNanoseconds: 10_000_000_000))
    let later = start.advanced(by: .milliseconds(1_500))
    XCTAssertEqual(later.dispatchTime.uptimeNanoseconds, 11_500_000_000)
    XCTAssertEqual(start.distance(to: later), .milliseconds(1_500))
    XCTAssertEqual(later.distance(to: start), .milliseconds(-1_500))
    XCTAssertEqual(start.advanced(by: .nanoseconds(-1)).dispatchTime.uptimeNanoseconds, 9_999_999_999)
    XCTAssertEqual(start.advanced(by: .zero), start)
  }

  // Apple's clock arithmetic (recorded by the conformance suite): before the first
  // nanosecond is the first nanosecond, past Int.max nanoseconds is the distant future,
  // and a time that far away is infinitely distant whichever way one looks.
  func test_advanced_andDistance_saturateAsApplesDo() {
    let early = Time(DispatchTime(uptimeNanoseconds: 5))
    XCTAssertEqual(early.advanced(by: .seconds(-1)).dispatchTime.uptimeNanoseconds, 1)
    let late = Time(DispatchTime(uptimeNanoseconds: UInt64(Int.max) - 10))
    XCTAssertEqual(late.advanced(by: .seconds(1)).dispatchTime, .distantFuture)
    let never = Time(.distantFuture)
    XCTAssertEqual(never.advanced(by: .seconds(-5)), never)
    XCTAssertEqual(Time(DispatchTime(uptimeNanoseconds: 0)).distance(to: never).magnitude, Int.max)
    XCTAssertEqual(never.distance(to: Time(DispatchTime(uptimeNanoseconds: 0))).magnitude, Int.max)
  }

  func test_strideable_comparesAndStrides() {
    let a = Time(DispatchTime(uptimeNanoseconds: 1_000))
    let b = Time(DispatchTime(uptimeNanoseconds: 2_000))
    XCTAssertLessThan(a, b)
    XCTAssertGreaterThan(b, a)
    XCTAssertEqual(a, Time(DispatchTime(uptimeNanoseconds: 1_000)))
    XCTAssertNotEqual(a, b)
    let steps = Array(stride(from: a, to: b, by: .nanoseconds(400))).map(\.dispatchTime.uptimeNanoseconds)
    XCTAssertEqual(steps, [1_000, 1_400, 1_800])
  }

  func test_hashable_sameInstantSameHash() {
    let set: Set<Time> = [
      Time(DispatchTime(uptimeNanoseconds: 7)), Time(DispatchTime(uptimeNanoseconds: 7)),
      Time(DispatchTime(uptimeNanoseconds: 8)),
    ]
    XCTAssertEqual(set.count, 2)
    XCTAssertEqual(
      Time(DispatchTime(uptimeNanoseconds: 7)).hashValue, Time(DispatchTime(uptimeNanoseconds: 7)).hashValue)
  }

  func test_codable_encodesUptimeNanosecondsAsASingleValue() throws {
    let time = Time(DispatchTime(uptimeNanoseconds: 42_000))
    let data = try JSONEncoder().encode([time])
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "[42000]")
    XCTAssertEqual(try JSONDecoder().decode([Time].self, from: data), [time])
  }

  func test_now_followsDispatchTimeNow() {
    let before = DispatchTime.now()
    let now = DispatchQueue.main.now
    let after = DispatchTime.now()
    XCTAssertLessThanOrEqual(before.uptimeNanoseconds, now.dispatchTime.uptimeNanoseconds)
    XCTAssertLessThanOrEqual(now.dispatchTime.uptimeNanoseconds, after.uptimeNanoseconds)
    XCTAssertEqual(DispatchQueue.main.minimumTolerance, .zero)
  }
}
