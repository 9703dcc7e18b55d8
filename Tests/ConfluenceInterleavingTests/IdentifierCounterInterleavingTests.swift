import XCTest

/// Every interleaving of three threads making `CombineIdentifier`s (see
/// ``IdentifierCounterModel``).
final class IdentifierCounterInterleavingTests: XCTestCase {
  func test_threeThreads_twoIdentifiersEach() {
    check(IdentifierCounterModel())
  }

  /// The mutation ``IdentifierCounterModel/incrementsInTwoSteps`` (a load, then a store)
  /// is caught: two threads make the same identifier.
  func test_loadThenStore_isCaught() {
    var model = IdentifierCounterModel()
    model.incrementsInTwoSteps = true
    checkCaught(model, "load then store", expected: "two identifiers are equal")
  }
}
