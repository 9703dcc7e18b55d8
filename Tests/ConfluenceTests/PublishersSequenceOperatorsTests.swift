import Confluence
import ConfluenceTesting
import XCTest

/// Apple's specialised `map`/`filter` on `Publishers.Sequence`: eager, and still sequence
/// publishers of arrays.
final class PublishersSequenceOperatorsTests: XCTestCase {
  func test_map_returnsSequenceOfArray() {
    let mapped: Publishers.Sequence<[String], Never> = [1, 2, 3].publisher.map { "#\($0)" }
    XCTAssertEqual(mapped.sequence, ["#1", "#2", "#3"])
    let subscriber = TestSubscriber<String, Never>()
    mapped.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("[\"#1\", \"#2\", \"#3\"]"), .value("#1"), .value("#2"), .value("#3"), .completion(.finished)])
  }

  func test_map_runsEagerlyOverWholeSequence() {
    var calls = 0
    _ = (1...4).publisher.map { value -> Int in
      calls += 1
      return value
    }
    XCTAssertEqual(calls, 4)
  }

  func test_filter_returnsSequenceOfArray() {
    let evens: Publishers.Sequence<[Int], Never> = (1...6).publisher.filter { $0.isMultiple(of: 2) }
    XCTAssertEqual(evens.sequence, [2, 4, 6])
  }

  // The arrays are written in place, sized by what the sequence promises
  // (`underestimatedCount`): a sequence that promises fewer elements than it has, or none,
  // still gives every element, in order; one that stops short of its promise gives what it has.

  func test_mapAndFilter_sequenceHavingMoreThanItPromises_everyElementInOrder() {
    let promisesTwoOfTen = Promising(count: 10, promised: 2)
    XCTAssertEqual(promisesTwoOfTen.publisher.map { $0 * 10 }.sequence, Array(stride(from: 0, to: 100, by: 10)))
    XCTAssertEqual(promisesTwoOfTen.publisher.filter { $0 % 3 == 0 }.sequence, [0, 3, 6, 9])
    let promisesNothing = Promising(count: 5, promised: 0)
    XCTAssertEqual(promisesNothing.publisher.map { $0 + 1 }.sequence, [1, 2, 3, 4, 5])
    XCTAssertEqual(promisesNothing.publisher.filter { $0 > 2 }.sequence, [3, 4])
    // Promising more than it has breaks `Sequence`'s contract; still nothing is invented.
    let promisesTooMuch = Promising(count: 3, promised: 8)
    XCTAssertEqual(promisesTooMuch.publisher.map { $0 }.sequence, [0, 1, 2])
    XCTAssertEqual(promisesTooMuch.publisher.filter { $0 != 1 }.sequence, [0, 2])
  }

  func test_mapAndFilter_emptyAndSingleElementSequences() {
    XCTAssertEqual(EmptyCollection<Int>().publisher.map { $0 }.sequence, [])
    XCTAssertEqual(EmptyCollection<Int>().publisher.filter { _ in true }.sequence, [])
    XCTAssertEqual(CollectionOfOne(7).publisher.map { $0 * 2 }.sequence, [14])
    XCTAssertEqual(CollectionOfOne(7).publisher.filter { _ in false }.sequence, [])
  }

  func test_filter_keepingFewElements_returnsAnArrayOfTheirSize() {
    let kept = (0..<1_000).publisher.filter { $0 % 100 == 0 }.sequence
    XCTAssertEqual(kept, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900])
    XCTAssertLessThan(kept.capacity, 100, "room for 1,000 elements kept for 10")
    let half = (0..<1_000).publisher.filter { $0.isMultiple(of: 2) }.sequence
    XCTAssertEqual(half.count, 500)
    XCTAssertEqual(half.last, 998)
  }

  func test_mapAndFilter_referenceElements_eachReleasedWithItsArray() {
    final class Box {
      let value: Int
      init(_ value: Int) { self.value = value }
    }
    weak var dropped: Box?
    weak var kept: Box?
    do {
      let boxes = (0..<6).publisher.map { Box($0) }
      dropped = boxes.sequence[1]
      kept = boxes.sequence[2]
      let evens = boxes.filter { $0.value.isMultiple(of: 2) }
      XCTAssertEqual(evens.sequence.map(\.value), [0, 2, 4])
      XCTAssertNotNil(dropped)
      XCTAssertNotNil(kept)
    }
    XCTAssertNil(dropped)
    XCTAssertNil(kept)
  }

  func test_keepsFailureType() {
    let typed = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
    let mapped: Publishers.Sequence<[Int], TestError> = typed.map { $0 * 2 }.filter { $0 > 2 }
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    mapped.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[4]"), .value(4), .completion(.finished)])
  }

  func test_filterThenMap_chains() {
    let pipeline: Publishers.Sequence<[String], Never> = (1...5).publisher.filter { $0.isMultiple(of: 2) }.map {
      "#\($0)"
    }
    var output: [String] = []
    let cancellable = pipeline.sink { output.append($0) }
    XCTAssertEqual(output, ["#2", "#4"])
    cancellable.cancel()
  }

  func test_genericOverloadsStillAvailableByContext() {
    let generic: Publishers.Map<Publishers.Sequence<[Int], Never>, Int> = [1, 2].publisher.map { $0 + 1 }
    let subscriber = TestSubscriber<Int, Never>()
    generic.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2]"), .value(2), .value(3), .completion(.finished)])
  }

  // MARK: prepend and append (Apple's: another sequence publisher of the same collection)

  func test_prependAndAppend_returnSequenceOfTheSameCollection() {
    let base = [3, 4].publisher
    let prependedValues: Publishers.Sequence<[Int], Never> = base.prepend(1, 2)
    let prependedSequence: Publishers.Sequence<[Int], Never> = base.prepend(1...2)
    let prependedPublisher: Publishers.Sequence<[Int], Never> = base.prepend([1, 2].publisher)
    let appendedValues: Publishers.Sequence<[Int], Never> = base.append(5, 6)
    let appendedSequence: Publishers.Sequence<[Int], Never> = base.append(5...6)
    let appendedPublisher: Publishers.Sequence<[Int], Never> = base.append([5, 6].publisher)
    XCTAssertEqual(prependedValues.sequence, [1, 2, 3, 4])
    XCTAssertEqual(prependedSequence.sequence, [1, 2, 3, 4])
    XCTAssertEqual(prependedPublisher.sequence, [1, 2, 3, 4])
    XCTAssertEqual(appendedValues.sequence, [3, 4, 5, 6])
    XCTAssertEqual(appendedSequence.sequence, [3, 4, 5, 6])
    XCTAssertEqual(appendedPublisher.sequence, [3, 4, 5, 6])
    XCTAssertEqual(base.sequence, [3, 4])
  }

  func test_prependAndAppend_keepTheCollectionType() {
    let text: Publishers.Sequence<String, Never> = "cd".publisher.prepend("a", "b").append("e")
    XCTAssertEqual(text.sequence, "abcde")
  }

  func test_prepend_thenSubscribe_publishesTheCombinedElements() {
    let subscriber = TestSubscriber<Int, Never>()
    [2].publisher.prepend(1).append(3).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertEqual(subscriber.completion, .finished)
  }
}

/// A sequence of `0..<count` whose `underestimatedCount` is `promised` (which a sequence may
/// set below its real length).
private struct Promising: Sequence {
  let count: Int
  let promised: Int

  var underestimatedCount: Int { promised }

  func makeIterator() -> Range<Int>.Iterator {
    (0..<count).makeIterator()
  }
}
