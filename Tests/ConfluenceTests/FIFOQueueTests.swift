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

  /// `isEmptyWithNoStorage` (read from `keepsSlots`, which stands for `!slots.isEmpty`) says
  /// `removeAll()` would change nothing: true only with nothing stored and no slots kept.
  func test_isEmptyWithNoStorage_followsTheSlotsThroughGrowthAndRemoveAll() {
    var queue = FIFOQueue<Int>()
    XCTAssertTrue(queue.isEmptyWithNoStorage, "a new queue")
    queue.append(1)
    XCTAssertFalse(queue.isEmptyWithNoStorage, "one value, held outside the slots")
    XCTAssertEqual(queue.keepsSlots, !queue.slots.isEmpty)
    _ = queue.popFirst()
    XCTAssertTrue(queue.isEmptyWithNoStorage, "emptied again before the slots grew")
    for value in 0..<6 { queue.append(value) }
    XCTAssertEqual(queue.keepsSlots, !queue.slots.isEmpty)
    XCTAssertTrue(queue.keepsSlots, "six values grew the slots")
    while queue.popFirst() != nil {}
    XCTAssertFalse(queue.isEmptyWithNoStorage, "empty, but the grown slots are kept")
    queue.removeAll()
    XCTAssertEqual(queue.keepsSlots, !queue.slots.isEmpty)
    XCTAssertTrue(queue.isEmptyWithNoStorage, "removeAll let the slots go")
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
    var (queue, alive) = queueOfThreeTokens()
    XCTAssertEqual(alive(), [true, true, true])
    _ = queue.popFirst()
    XCTAssertEqual(alive(), [false, true, true], "a popped value is no longer held by the queue")
    queue.remove(atOffset: 0)
    XCTAssertEqual(alive(), [false, false, true], "a removed value is no longer held by the queue")
    XCTAssertEqual(queue.count, 1)
  }

  func test_removeAll_releasesEveryValueAndLeavesAUsableQueue() {
    var (queue, alive) = queueOfThreeTokens()
    queue.removeAll()
    XCTAssertEqual(alive(), [false, false, false], "the oldest value and those in the ring are released")
    XCTAssertTrue(queue.isEmpty)
    XCTAssertEqual(queue.count, 0)
    let token = Token()
    queue.append(token)
    queue.append(Token())
    XCTAssertTrue(queue.popFirst() === token, "the queue works again after removeAll")
    XCTAssertEqual(queue.count, 1)
  }

  /// Through `FIFOQueueing`, as `zip`'s logics reach their queues (generic over the queue,
  /// so the slot type comes from the queue's own generic arguments): order kept across
  /// growth, and each value released when `removeFirst()` hands it out.
  func test_throughFIFOQueueing_keepsOrder_andReleasesEachValueAsItLeaves() {
    var queue = FIFOQueue<Token>()
    weak var first: Token?
    var tokens: [Token] = []
    do {
      let made = (0..<6).map { _ in Token() }
      first = made[0]
      appendAll(made, to: &queue)
      tokens = Array(made.dropFirst())
    }
    XCTAssertNotNil(first, "the queue holds the oldest value")
    XCTAssertEqual(countThrough(queue), 6)
    let removed = removeFirstThrough(&queue)
    XCTAssertNotNil(removed)
    XCTAssertTrue(removed === first)
    _ = consume removed
    XCTAssertNil(first, "the value handed out is no longer held by the queue")
    weak let last = tokens.last
    for token in tokens {
      XCTAssertTrue(removeFirstThrough(&queue) === token, "oldest first, across the ring's growth")
    }
    tokens = []
    XCTAssertNil(last, "the last value handed out, from the oldest slot, is not held either")
    XCTAssertEqual(countThrough(queue), 0)
  }
}

private func appendAll<Queue: FIFOQueueing>(_ elements: [Queue.Element], to queue: inout Queue) {
  for element in elements { queue.append(element) }
}

private func removeFirstThrough<Queue: FIFOQueueing>(_ queue: inout Queue) -> Queue.Element {
  queue.removeFirst()
}

private func countThrough<Queue: FIFOQueueing>(_ queue: Queue) -> Int {
  queue.count
}

private final class Token {}

/// A queue holding three tokens that nothing else holds (the first in the oldest slot, the
/// others in the ring), and whether each is still alive, in order.
private func queueOfThreeTokens() -> (queue: FIFOQueue<Token>, alive: () -> [Bool]) {
  var queue = FIFOQueue<Token>()
  let tokens = [Token(), Token(), Token()]
  for token in tokens { queue.append(token) }
  let watchers = tokens.map { token in { [weak token] in token != nil } }
  return (queue, { watchers.map { $0() } })
}
