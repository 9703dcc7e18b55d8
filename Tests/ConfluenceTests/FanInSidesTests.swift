@testable import Confluence
import XCTest

/// `FanInSides`, the fan-in operators' set of finished upstreams, written out as a bit set:
/// membership, insertion and the superset test against every side and every generated
/// `sides` constant.
final class FanInSidesTests: XCTestCase {
  private let all: [FanInSides] = [.a, .b, .c, .d]

  func test_insertAndContains_tracksEachSideApart() {
    var set = FanInSides()
    XCTAssertEqual(set, FanInSides(rawValue: 0))
    for (count, side) in all.enumerated() {
      XCTAssertFalse(set.contains(side))
      set.insert(side)
      set.insert(side)  // inserting twice changes nothing
      XCTAssertTrue(set.contains(side))
      for (index, other) in all.enumerated() {
        XCTAssertEqual(set.contains(other), index <= count, "after inserting \(count + 1) sides")
      }
    }
    XCTAssertTrue(set.contains(FanInSides()), "every set contains the empty set")
  }

  func test_isSuperset_ofEachLogicsSides() {
    let sidesByCount = [
      2: (CombineLatestLogic<Int, Int, Int?, Int?>.sides, ZipLogic<FIFOQueue<Int>, FIFOQueue<Int>>.sides),
      3: (
        CombineLatestLogic3<Int, Int, Int, Int?, Int?, Int?>.sides,
        ZipLogic3<FIFOQueue<Int>, FIFOQueue<Int>, FIFOQueue<Int>>.sides
      ),
      4: (
        CombineLatestLogic4<Int, Int, Int, Int, Int?, Int?, Int?, Int?>.sides,
        ZipLogic4<FIFOQueue<Int>, FIFOQueue<Int>, FIFOQueue<Int>, FIFOQueue<Int>>.sides
      ),
    ]
    for (count, (combineLatest, zip)) in sidesByCount {
      XCTAssertEqual(combineLatest, zip)
      var finished = FanInSides()
      for (index, side) in all.prefix(count).enumerated() {
        XCTAssertFalse(finished.isSuperset(of: combineLatest), "\(index) of \(count) sides finished")
        finished.insert(side)
      }
      XCTAssertTrue(finished.isSuperset(of: combineLatest), "all \(count) sides finished")
      XCTAssertEqual(finished, combineLatest, "the logic's sides are exactly its first \(count)")
    }
  }
}
