@testable import Confluence
import XCTest

/// `OptionalValue`'s in-place slot operations, which the queues behind `zip` and
/// `combineLatest`'s latest values use: called here through generic functions, as code the
/// compiler did not specialise calls them (the witnesses of `Optional`'s conformance).
final class OptionalSlotTests: XCTestCase {
  func test_fillSlot_putsACopyInAnEmptySlot_andKeepsTheCallersValue() {
    var slot: Token? = nil
    weak var weakToken: Token?
    do {
      let token = Token(1)
      weakToken = token
      fill(&slot, with: token)
      XCTAssertTrue(slot === token)
    }
    XCTAssertNotNil(weakToken, "the slot holds its own copy once the caller's value is gone")
    slot = nil
    XCTAssertNil(weakToken, "and only the slot held it")
  }

  func test_fillSlot_replacesAFilledSlot_andReleasesTheValueItHeld() {
    var slot: Token? = Token(1)
    weak let first = slot
    XCTAssertNotNil(first)
    let second = Token(2)
    fill(&slot, with: second)
    XCTAssertNil(first, "the replaced value is released")
    XCTAssertTrue(slot === second)
  }

  func test_takeWrapped_handsTheValueOut_andLeavesTheSlotEmpty() {
    var slot: Token? = Token(7)
    weak let weakToken = slot
    var taken: Token? = take(&slot)
    XCTAssertNil(slot, "the slot is empty after the take")
    XCTAssertEqual(taken?.value, 7)
    XCTAssertNotNil(weakToken, "the value taken is alive in the caller's hands")
    taken = nil
    XCTAssertNil(weakToken, "and only there: the slot kept no second reference")
  }

  func test_fillThenTake_withAValueWiderThanAWord() {
    var slot: (Int, String, Int)? = nil
    fill(&slot, with: (1, "two", 3))
    let value = take(&slot)
    XCTAssertEqual(value.0, 1)
    XCTAssertEqual(value.1, "two")
    XCTAssertEqual(value.2, 3)
    XCTAssertNil(slot)
  }
}

private final class Token {
  let value: Int
  init(_ value: Int) { self.value = value }
}

private func fill<Slot: OptionalValue>(_ slot: inout Slot, with value: Slot.Wrapped) {
  slot.fillSlot(with: value)
}

private func take<Slot: OptionalValue>(_ slot: inout Slot) -> Slot.Wrapped {
  slot.takeWrapped()
}
