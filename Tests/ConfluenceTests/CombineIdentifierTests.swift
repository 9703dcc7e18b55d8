import Confluence
import XCTest

final class CombineIdentifierTests: XCTestCase {
  func test_init_isUnique() {
    let ids = (0..<1000).map { _ in CombineIdentifier() }
    XCTAssertEqual(Set(ids).count, 1000)
  }

  func test_initWithObject_isStableAndDistinct() {
    final class Object {}
    let a = Object()
    let b = Object()
    XCTAssertEqual(CombineIdentifier(a), CombineIdentifier(a))
    XCTAssertNotEqual(CombineIdentifier(a), CombineIdentifier(b))
  }

  func test_classConformers_getIdentifierFromIdentity() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    XCTAssertEqual(sink.combineIdentifier, CombineIdentifier(sink))
  }

  func test_description_isHex() {
    let description = CombineIdentifier().description
    XCTAssertTrue(description.hasPrefix("0x"), description)
    XCTAssertNotNil(UInt64(description.dropFirst(2), radix: 16))
  }
}
