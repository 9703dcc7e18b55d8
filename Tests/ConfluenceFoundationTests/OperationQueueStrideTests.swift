import ConfluenceFoundation
import Foundation
import XCTest

final class OperationQueueStrideTests: XCTestCase {
  typealias Stride = OperationQueue.SchedulerTimeType.Stride

  func test_conversions_countSeconds() {
    XCTAssertEqual(Stride.seconds(2).timeInterval, 2)
    XCTAssertEqual(Stride.seconds(1.5).timeInterval, 1.5)
    XCTAssertEqual(Stride.milliseconds(250).timeInterval, 0.25)
    XCTAssertEqual(Stride.microseconds(4).timeInterval, 0.000_004)
    XCTAssertEqual(Stride.nanoseconds(5).timeInterval, 0.000_000_005)
    XCTAssertEqual(Stride.milliseconds(1).magnitude, Stride.milliseconds(1).timeInterval)
  }

  func test_literalsAndInitializers_countSeconds() {
    let two: Stride = 2
    let quarter: Stride = 0.25
    XCTAssertEqual(two.timeInterval, 2)
    XCTAssertEqual(quarter.timeInterval, 0.25)
    XCTAssertEqual(Stride(1.5).timeInterval, 1.5)
    XCTAssertEqual(Stride(exactly: 3)?.timeInterval, 3)
    XCTAssertNil(Stride(exactly: UInt64.max - 1))
    XCTAssertEqual(Stride(integerLiteral: 4), .seconds(4))
    XCTAssertEqual(Stride(floatLiteral: 0.5), .milliseconds(500))
  }

  func test_arithmetic() {
    var stride: Stride = .milliseconds(500)
    stride += 1
    XCTAssertEqual(stride, 1.5)
    stride -= 2
    XCTAssertEqual(stride, -0.5)
    XCTAssertEqual(-stride, 0.5)
    XCTAssertEqual(Stride(2) * 3, 6)
    var product: Stride = 1.5
    product *= 2
    XCTAssertEqual(product, 3)
    XCTAssertEqual(Stride.zero.timeInterval, 0)
  }

  func test_comparable() {
    XCTAssertLessThan(Stride.microseconds(999), Stride.milliseconds(1))
    XCTAssertLessThan(Stride.seconds(-1), .zero)
    XCTAssertEqual(
      [Stride.seconds(1), .nanoseconds(1), .milliseconds(1)].sorted(), [.nanoseconds(1), .milliseconds(1), .seconds(1)])
  }

  func test_codableAndHashable() throws {
    let strides: [Stride] = [.seconds(1), .milliseconds(-3)]
    let decoded = try JSONDecoder().decode([Stride].self, from: JSONEncoder().encode(strides))
    XCTAssertEqual(decoded, strides)
    XCTAssertEqual(Set([Stride.seconds(1), .milliseconds(1_000), .seconds(2)]).count, 2)
  }
}
