import ConfluenceFoundation
import Dispatch
import Foundation
import XCTest

final class DispatchQueueStrideTests: XCTestCase {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride

  func test_conversions_countNanoseconds() {
    XCTAssertEqual(Stride.seconds(2).magnitude, 2_000_000_000)
    XCTAssertEqual(Stride.seconds(1.5).magnitude, 1_500_000_000)
    XCTAssertEqual(Stride.milliseconds(3).magnitude, 3_000_000)
    XCTAssertEqual(Stride.microseconds(4).magnitude, 4_000)
    XCTAssertEqual(Stride.nanoseconds(5).magnitude, 5)
    XCTAssertEqual(Stride.seconds(-1).magnitude, -1_000_000_000)
  }

  func test_literals_countSeconds() {
    let two: Stride = 2
    let quarter: Stride = 0.25
    XCTAssertEqual(two.magnitude, 2_000_000_000)
    XCTAssertEqual(quarter.magnitude, 250_000_000)
    XCTAssertEqual(Stride(integerLiteral: 3), .seconds(3))
    XCTAssertEqual(Stride(floatLiteral: 0.001), .milliseconds(1))
  }

  func test_fractionalSeconds_roundToTheNearestNanosecond() {
    // 0.57 * 1e9 is 569_999_999.99… in binary floating point.
    XCTAssertEqual(Stride.seconds(0.57), .milliseconds(570))
    XCTAssertEqual(Stride(floatLiteral: 1e-10).magnitude, 0)
  }

  // As Apple's (recorded by the conformance suite): the number counts seconds.
  func test_exactly_countsSeconds_andRejectsWhatDoesNotFit() {
    XCTAssertEqual(Stride(exactly: 5)?.magnitude, 5_000_000_000)
    XCTAssertEqual(Stride(exactly: Int8(-3))?.magnitude, -3_000_000_000)
    XCTAssertNil(Stride(exactly: UInt64.max))
  }

  func test_codedForm_isApples_nanosecondsKey() throws {
    let data = try JSONEncoder().encode(Stride.nanoseconds(419_872))
    XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"_nanoseconds":419872}"#)
    XCTAssertEqual(try JSONDecoder().decode(Stride.self, from: data), .nanoseconds(419_872))
  }

  func test_dispatchTimeInterval_roundTrips() {
    XCTAssertEqual(Stride(.seconds(1)).magnitude, 1_000_000_000)
    XCTAssertEqual(Stride(.milliseconds(20)).magnitude, 20_000_000)
    XCTAssertEqual(Stride(.microseconds(30)).magnitude, 30_000)
    XCTAssertEqual(Stride(.nanoseconds(40)).magnitude, 40)
    XCTAssertEqual(Stride(.never).magnitude, Int.max)
    XCTAssertEqual(Stride.milliseconds(7).timeInterval, .nanoseconds(7_000_000))
  }

  func test_hugeValues_saturate() {
    XCTAssertEqual(Stride.seconds(Int.max).magnitude, Int.max)
    XCTAssertEqual(Stride.seconds(Int.min).magnitude, Int.min)
    XCTAssertEqual(Stride.seconds(Double.infinity).magnitude, Int.max)
    XCTAssertEqual(Stride.seconds(-1e300).magnitude, Int.min)
    XCTAssertEqual(Stride(.seconds(Int.max)).magnitude, Int.max)
  }

  func test_arithmetic() {
    var stride: Stride = .milliseconds(10)
    stride += .milliseconds(5)
    XCTAssertEqual(stride, .milliseconds(15))
    stride -= .milliseconds(20)
    XCTAssertEqual(stride, .milliseconds(-5))
    XCTAssertEqual(-stride, .milliseconds(5))
    // As Apple's: `*` multiplies seconds, so short strides multiply to (nearly) nothing.
    XCTAssertEqual(Stride.nanoseconds(6) * .nanoseconds(7), .nanoseconds(0))
    XCTAssertEqual(Stride.seconds(2) * .seconds(3), .seconds(6))
    var product: Stride = .seconds(3)
    product *= .milliseconds(500)
    XCTAssertEqual(product, .milliseconds(1_500))
    XCTAssertEqual(Stride.zero.magnitude, 0)
  }

  func test_comparable() {
    XCTAssertLessThan(Stride.microseconds(999), Stride.milliseconds(1))
    XCTAssertLessThan(Stride.seconds(-1), Stride.zero)
    XCTAssertEqual(
      [Stride.seconds(1), .nanoseconds(1), .milliseconds(1)].sorted(), [.nanoseconds(1), .milliseconds(1), .seconds(1)])
  }

  func test_codableAndHashable() throws {
    let strides: [Stride] = [.seconds(1), .nanoseconds(-3)]
    let decoded = try JSONDecoder().decode([Stride].self, from: JSONEncoder().encode(strides))
    XCTAssertEqual(decoded, strides)
    XCTAssertEqual(Set([Stride.seconds(1), .milliseconds(1_000), .seconds(2)]).count, 2)
  }
}
