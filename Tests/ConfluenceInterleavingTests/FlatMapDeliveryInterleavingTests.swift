import XCTest

/// Every interleaving of the delivery word shared by `flatMap`, the merge publishers, `zip`
/// and `combineLatest` (see ``FlatMapDeliveryModel``).
final class FlatMapDeliveryInterleavingTests: XCTestCase {
  func test_ownerLetsGoWithoutTheLock_twoSenders() {
    check(FlatMapDeliveryModel(senders: 2, valuesPerSender: 3, hasLane: false))
  }

  func test_ownerLetsGoWithoutTheLock_threeSenders() {
    check(FlatMapDeliveryModel(senders: 3, valuesPerSender: 2, hasLane: false))
  }

  func test_mergeLane_twoSenders() {
    check(FlatMapDeliveryModel(senders: 2, valuesPerSender: 3, hasLane: true))
  }

  func test_mergeLane_threeSenders() {
    check(FlatMapDeliveryModel(senders: 3, valuesPerSender: 2, hasLane: true))
  }

  /// The checks bite: a critical section that finds an owner and does not set `recheck`
  /// lets the owner go with its value still buffered — never delivered.
  func test_sectionWithoutRecheck_isCaught() {
    for hasLane in [false, true] {
      var model = FlatMapDeliveryModel(senders: 2, valuesPerSender: 2, hasLane: hasLane)
      model.omitsRecheck = true
      let result = explore(model)
      XCTAssertNotNil(result.failure, "\(result)")
      XCTAssertTrue(result.failure?.message.contains("left behind") ?? false, "\(result)")
      print("interleavings: without recheck (lane: \(hasLane)): \(result.failure?.message ?? "no failure")")
    }
  }

  /// The checks bite: a critical section that leaves the lane open lets a value take the
  /// lane while the section takes delivery too — two calls into downstream at once.
  func test_sectionLeavingTheLaneOpen_isCaught() {
    var model = FlatMapDeliveryModel(senders: 2, valuesPerSender: 2, hasLane: true)
    model.leavesLaneOpen = true
    let result = explore(model)
    XCTAssertNotNil(result.failure, "\(result)")
    print("interleavings: lane left open: \(result.failure?.message ?? "no failure")")
  }
}
