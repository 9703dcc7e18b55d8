@testable import Confluence
import XCTest

/// `SubjectConduitList`: a lone element outside any buffer, two or more in order in one
/// array, whatever sequence of appends and removals led there.
final class SubjectConduitListTests: XCTestCase {
  final class Item {
    let name: String
    init(_ name: String) { self.name = name }
  }

  private func names(_ list: SubjectConduitList<Item>) -> [String] { list.map(\.name) }

  private func assertShape(_ list: SubjectConduitList<Item>, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(list.lone != nil, list.count == 1, "lone is set exactly for one element", file: file, line: line)
    if list.count == 1 { XCTAssertTrue(list.many.isEmpty, file: file, line: line) }
    XCTAssertEqual(list.snapshot.map(\.name), names(list), "the snapshot is the list, in order", file: file, line: line)
    XCTAssertTrue(
      list.head === (list.count >= 2 ? list[0] : nil), "head is the first of two or more elements", file: file,
      line: line)
  }

  func test_growingAndShrinking_keepsOrderAndTheLoneElementOutsideTheArray() {
    let a = Item("a")
    let b = Item("b")
    let c = Item("c")
    var list = SubjectConduitList<Item>()
    XCTAssertTrue(list.isEmpty)
    assertShape(list)
    list.append(a)
    XCTAssertTrue(list.lone === a)
    XCTAssertEqual(names(list), ["a"])
    assertShape(list)
    list.append(b)
    list.append(c)
    XCTAssertNil(list.lone)
    XCTAssertEqual(names(list), ["a", "b", "c"])
    assertShape(list)
    XCTAssertTrue(list.remove(at: 1) === b)
    XCTAssertEqual(names(list), ["a", "c"])
    assertShape(list)
    XCTAssertTrue(list.remove(at: 0) === a)
    XCTAssertTrue(list.lone === c, "the one left is taken out of the array")
    assertShape(list)
    list.append(b)
    XCTAssertEqual(names(list), ["c", "b"])
    assertShape(list)
    XCTAssertEqual(list.firstIndex { $0 === b }, 1)
    XCTAssertTrue(list.remove(at: 1) === b)
    XCTAssertTrue(list.remove(at: 0) === c)
    XCTAssertTrue(list.isEmpty)
    assertShape(list)
  }

  func test_replace_normalisesToTheSameShape() {
    let items = (0..<3).map { Item("\($0)") }
    var list = SubjectConduitList<Item>()
    list.replace(with: ContiguousArray(items))
    XCTAssertEqual(names(list), ["0", "1", "2"])
    assertShape(list)
    list.replace(with: [items[2]])
    XCTAssertTrue(list.lone === items[2])
    assertShape(list)
    list.replace(with: [])
    XCTAssertTrue(list.isEmpty)
    assertShape(list)
  }

  func test_aSnapshotTakenBeforeARemovalStillHoldsEveryElement() {
    let items = (0..<3).map { Item("\($0)") }
    var list = SubjectConduitList<Item>()
    for item in items { list.append(item) }
    let snapshot = list.snapshot
    _ = list.remove(at: 0)
    XCTAssertTrue(list.head === items[1], "removing the head makes the next element the head")
    assertShape(list)
    _ = list.remove(at: 0)
    XCTAssertEqual(snapshot.map(\.name), ["0", "1", "2"])
    XCTAssertEqual(names(list), ["2"])
    assertShape(list)
  }

  /// The members spelled out for debug builds (`count`, `isEmpty`, `indices`, the search by
  /// identity) agree with the collection's own view of the list in every shape.
  func test_spelledOutMembers_agreeWithTheCollectionDefaults() {
    let items = (0..<4).map { Item("\($0)") }
    let stranger = Item("x")
    var list = SubjectConduitList<Item>()
    for size in 0...items.count {
      XCTAssertEqual(list.count, size)
      XCTAssertEqual(list.count, list.distance(from: list.startIndex, to: list.endIndex))
      XCTAssertEqual(list.isEmpty, size == 0)
      XCTAssertEqual(Array(list.indices), Array(0..<size))
      for (position, item) in items.prefix(size).enumerated() {
        XCTAssertEqual(list.firstIndex(identicalTo: item), position)
      }
      XCTAssertNil(list.firstIndex(identicalTo: stranger))
      if size < items.count { list.append(items[size]) }
    }
    _ = list.remove(at: 1)
    XCTAssertEqual(list.firstIndex(identicalTo: items[2]), 1, "positions move up after a removal")
    XCTAssertNil(list.firstIndex(identicalTo: items[1]))
  }
}
