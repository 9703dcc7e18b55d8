import Confluence
import XCTest

final class SubscriptionsEmptyTests: XCTestCase {
  func test_descriptionIsEmpty_andRequestsAreIgnored() {
    let empty = Subscriptions.empty
    XCTAssertEqual(String(describing: empty), "Empty")
    empty.request(.max(1))
    empty.cancel()
    empty.cancel()
    XCTAssertEqual((empty as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "Empty")
    XCTAssertEqual((empty as? CustomReflectable)?.customMirror.children.count, 0)
  }

  func test_isShared() {
    XCTAssertEqual(Subscriptions.empty.combineIdentifier, Subscriptions.empty.combineIdentifier)
  }
}
