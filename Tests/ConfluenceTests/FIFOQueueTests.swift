@testable import Confluence
import XCTest

/// The ring buffer behind zip's buffers, `buffer`, `switchToLatest`, the scheduler hop and
/// the extras' replay: order across wrap-around and growth, removal from the middle, and
/// values released as they leave.
final class FIFOQueueTests: XCTestCase {
  func test_keepsOrderAcrossWrapAroundAndGrowth() {
    var queue = FIFOQueue<Int>()
    var expected: [Int] = []
    var next = 0
    // Interleave appends and removals so the head walks around the ring several times while
    // the queue grows from 4 slots to 32.
    for round in 0..<40 {
      for _ in 0..<(round % 5 + 1) {
        queue.append(next)
        expected.append(next)
        next += 1
      }
      for _ in 0..<(round % 3) where !expected.isEmpty {
        XCTAssertEqual(queue.popFirst(), expected.removeFirst())
      }
      XCTAssertEqual(queue.count, expected.count)
      XCTAssertEqual(queue.elements, expected)
    }
    while let value = queue.popFirst() {
      XCTAssertEqual(value, expected.removeFirst())
    }
    XCTAssertTrue(expected.isEmpty)
    XCTAssertTrue(queue.isEmpty)
    XCTAssertNil(queue.popFirst())
  }

  func test_removeAtOffset_closesTheGapWhenWrapped() {
    var queue = FIFOQueue<String>()
    for value in ["a", "b", "c", "d"] { queue.append(value) }
    _ = queue.popFirst()
    _ = queue.popFirst()
    for value in ["e", "f"] { queue.append(value) }  // wraps: slots hold e f c d
    XCTAssertEqual(queue.elements, ["c", "d", "e", "f"])
    queue.remove(atOffset: 1)
    XCTAssertEqual(queue.elements, ["c", "e", "f"])
    queue.remove(atOffset: 2)
    XCTAssertEqual(queue.elements, ["c", "e"])
    queue.append("g")
    XCTAssertEqual(queue.elements, ["c", "e", "g"])
    XCTAssertEqual(queue.removeFirst(), "c")
    XCTAssertEqual(queue.count, 2)
  }

  func test_releasesAValueWhenItLeaves() {
    final class Token {}
    var queue = FIFOQueue<Token>()
    weak var first: Token?
    weak var removed: Token?
    do {
      let a = Token()
      let b = Token()
      first = a
      removed = b
      queue.append(a)
      queue.append(b)
      queue.append(Token())
    }
    XCTAssertNotNil(first)
    _ = queue.popFirst()
    XCTAssertNil(first, "a popped value is no longer held by the queue")
    queue.remove(atOffset: 0)
    XCTAssertNil(removed, "a removed value is no longer held by the queue")
    XCTAssertEqual(queue.count, 1)
  }

  func test_removeAll_releasesEveryValueAndLeavesAUsableQueue() {
    final class Token {}
    var queue = FIFOQueue<Token>()
    weak var oldest: Token?
    weak var inRing: Token?
    do {
      let a = Token()
      let b = Token()
      oldest = a
      inRing = b
      queue.append(a)
      queue.append(b)
      queue.append(Token())
    }
    queue.removeAll()
    XCTAssertNil(oldest, "the oldest value is released")
    XCTAssertNil(inRing, "values in the ring are released")
    XCTAssertTrue(queue.isEmpty)
    XCTAssertEqual(queue.count, 0)
    let c = Token()
    queue.append(c)
    queue.append(Token())
    XCTAssertTrue(queue.popFirst() === c, "the queue works again after removeAll")
    XCTAssertEqual(queue.count, 1)
  }
}
