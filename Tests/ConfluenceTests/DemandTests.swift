import Confluence
import Foundation
import XCTest

final class DemandTests: XCTestCase {
  func test_descriptions() {
    XCTAssertEqual(Subscribers.Demand.unlimited.description, "unlimited")
    XCTAssertEqual(Subscribers.Demand.max(3).description, "max(3)")
    XCTAssertEqual(Subscribers.Demand.none.description, "max(0)")
  }

  func test_max_property() {
    XCTAssertEqual(Subscribers.Demand.max(7).max, 7)
    XCTAssertNil(Subscribers.Demand.unlimited.max)
    XCTAssertEqual(Subscribers.Demand.none, .max(0))
  }

  func test_addition_saturatesAtUnlimited() {
    XCTAssertEqual(Subscribers.Demand.max(2) + .max(3), .max(5))
    XCTAssertEqual(Subscribers.Demand.max(2) + .unlimited, .unlimited)
    XCTAssertEqual(Subscribers.Demand.unlimited + 5, .unlimited)
    XCTAssertEqual(Subscribers.Demand.max(Int.max) + .max(1), .unlimited)
    XCTAssertEqual(Subscribers.Demand.max(Int.max) + 1, .unlimited)
    var demand = Subscribers.Demand.max(1)
    demand += 2
    XCTAssertEqual(demand, .max(3))
    demand += .max(4)
    XCTAssertEqual(demand, .max(7))
  }

  func test_subtraction_floorsAtZero_unlimitedStays() {
    XCTAssertEqual(Subscribers.Demand.max(5) - .max(3), .max(2))
    XCTAssertEqual(Subscribers.Demand.max(3) - .max(5), .none)
    XCTAssertEqual(Subscribers.Demand.unlimited - .max(5), .unlimited)
    XCTAssertEqual(Subscribers.Demand.unlimited - .unlimited, .unlimited)
    XCTAssertEqual(Subscribers.Demand.max(5) - .unlimited, .none)
    XCTAssertEqual(Subscribers.Demand.max(5) - 7, .none)
    XCTAssertEqual(Subscribers.Demand.unlimited - 7, .unlimited)
    var demand = Subscribers.Demand.max(4)
    demand -= 1
    XCTAssertEqual(demand, .max(3))
    demand -= .max(10)
    XCTAssertEqual(demand, .none)
  }

  func test_multiplication() {
    XCTAssertEqual(Subscribers.Demand.max(3) * 4, .max(12))
    XCTAssertEqual(Subscribers.Demand.unlimited * 0, .unlimited)
    XCTAssertEqual(Subscribers.Demand.max(Int.max) * 2, .unlimited)
    var demand = Subscribers.Demand.max(2)
    demand *= 3
    XCTAssertEqual(demand, .max(6))
  }

  func test_comparisonsWithInt() {
    let three = Subscribers.Demand.max(3)
    XCTAssertTrue(three > 2)
    XCTAssertFalse(three > 3)
    XCTAssertTrue(three >= 3)
    XCTAssertTrue(three < 4)
    XCTAssertTrue(three <= 3)
    XCTAssertTrue(three == 3)
    XCTAssertTrue(three != 4)
    XCTAssertTrue(3 == three)
    XCTAssertTrue(4 != three)
    XCTAssertTrue(4 > three)
    XCTAssertTrue(3 >= three)
    XCTAssertTrue(2 < three)
    XCTAssertTrue(3 <= three)
    XCTAssertTrue(Subscribers.Demand.unlimited > Int.max)
    XCTAssertFalse(Subscribers.Demand.unlimited < Int.max)
    XCTAssertFalse(Subscribers.Demand.unlimited <= Int.max)
    XCTAssertFalse(Subscribers.Demand.unlimited == Int.max)
    XCTAssertTrue(Int.max < Subscribers.Demand.unlimited)
    XCTAssertFalse(Int.max >= Subscribers.Demand.unlimited)
  }

  func test_comparable_orderingOfDemands() {
    XCTAssertLessThan(Subscribers.Demand.none, .max(1))
    XCTAssertLessThan(Subscribers.Demand.max(Int.max), .unlimited)
    XCTAssertEqual([Subscribers.Demand.unlimited, .max(2), .none].sorted(), [.none, .max(2), .unlimited])
  }

  func test_hashable() {
    let set: Set<Subscribers.Demand> = [.max(1), .max(1), .unlimited]
    XCTAssertEqual(set.count, 2)
  }

  func test_codable_roundTrips() throws {
    let demands: [Subscribers.Demand] = [.none, .max(42), .unlimited]
    let data = try JSONEncoder().encode(demands)
    XCTAssertEqual(try JSONDecoder().decode([Subscribers.Demand].self, from: data), demands)
  }

  func test_decoding_valueAboveUnlimited_isUnlimited() throws {
    let data = Data("[\(UInt.max), \(UInt(Int.max) + 2)]".utf8)
    XCTAssertEqual(try JSONDecoder().decode([Subscribers.Demand].self, from: data), [.unlimited, .unlimited])
  }

  func test_decoding_negativeValue_throws() {
    XCTAssertThrowsError(try JSONDecoder().decode([Subscribers.Demand].self, from: Data("[-1]".utf8)))
  }

  func test_subtractingNegative_addsMagnitude_andOverflowIsNone() {
    XCTAssertEqual(Subscribers.Demand.max(3) - (-2), .max(5))
    XCTAssertEqual(Subscribers.Demand.max(Int.max) - (-1), .none)
    XCTAssertEqual(Subscribers.Demand.unlimited - (-1), .unlimited)
    var demand = Subscribers.Demand.max(Int.max)
    demand -= -1
    XCTAssertEqual(demand, .none)
  }

  func test_addingNegative_clampsAtZero_unlimitedStays() {
    XCTAssertEqual(Subscribers.Demand.max(3) + (-5), .none)
    var demand = Subscribers.Demand.unlimited
    demand += Int.min
    XCTAssertEqual(demand, .unlimited)
  }
}
