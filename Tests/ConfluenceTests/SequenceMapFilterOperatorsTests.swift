import Confluence
import ConfluenceTesting
import XCTest

/// Apple's specialised mapping, filtering and sequence overloads on `Publishers.Sequence`.
final class SequenceMapFilterOperatorsTests: XCTestCase {
  func test_scan() {
    let totals: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.scan(0) { $0 + $1 }
    XCTAssertEqual(totals.sequence, [1, 3, 6])
  }

  func test_setFailureType_keepsSequence() {
    let typed: Publishers.Sequence<[Int], TestError> = [1, 2].publisher.setFailureType(to: TestError.self)
    XCTAssertEqual(typed.sequence, [1, 2])
  }

  func test_replaceNil_keepsOptionalElements() {
    let filled: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
    XCTAssertEqual(filled.sequence, [1, 0, 3])
  }

  func test_compactMap() {
    let numbers: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }
    XCTAssertEqual(numbers.sequence, [1, 3])
  }

  func test_removeDuplicates() {
    let distinct: Publishers.Sequence<[Int], Never> = [1, 1, 2, 2, 1].publisher.removeDuplicates()
    XCTAssertEqual(distinct.sequence, [1, 2, 1])
  }

  func test_dropAndPrefix_areLazySequences() {
    let rest: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher.dropFirst()
    XCTAssertEqual(Array(rest.sequence), [2, 3])
    let tail: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = [1, 2, 5, 1].publisher.drop { $0 < 3 }
    XCTAssertEqual(Array(tail.sequence), [5, 1])
    let head: Publishers.Sequence<PrefixSequence<[Int]>, Never> = [1, 2, 3].publisher.prefix(2)
    XCTAssertEqual(Array(head.sequence), [1, 2])
    let small: Publishers.Sequence<[Int], Never> = [1, 2, 5, 1].publisher.prefix { $0 < 3 }
    XCTAssertEqual(small.sequence, [1, 2])
  }

  func test_outputAt_returnsOptionalPublisher() {
    let third: Optional<Int>.Publisher = [10, 20, 30].publisher.output(at: 2)
    let missing: Optional<Int>.Publisher = [10, 20, 30].publisher.output(at: 5)
    XCTAssertEqual(third.output, 30)
    XCTAssertNil(missing.output)
  }

  func test_outputIn_slicesTheCollection() {
    let middle: Publishers.Sequence<[Int], Never> = [1, 2, 3, 4].publisher.output(in: 1..<3)
    XCTAssertEqual(middle.sequence, [2, 3])
  }

  // Apple's overload is on `Collection`, not only random-access ones (an earlier version
  // clamped the range; Apple slices it as given).
  func test_outputIn_worksOnAnyCollection() {
    let evens = [1, 2, 3, 4, 5, 6].lazy.filter { $0.isMultiple(of: 2) }
    let start = evens.startIndex
    let end = evens.index(start, offsetBy: 2)
    let publisher: Publishers.Sequence<[Int], Never> = evens.publisher.output(in: start..<end)
    XCTAssertEqual(publisher.sequence, [2, 4])
  }

  func test_publishesEagerResult() {
    let subscriber = TestSubscriber<Int, Never>()
    (0...10).publisher.prefix(2).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [0, 1])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  /// Apple documents `replaceNil(with:)` on an array publisher as printing
  /// `Optional(…)`: the sequence overload keeps the elements optional. Spelled with an
  /// explicit type here because this compiler picks the generic `Map` overload when the
  /// call is chained straight into `sink` (see `ReplaceNilTests`).
  func test_appleReplaceNilExample_sequenceOverload() {
    let numbers: [Double?] = [1.0, 2.0, nil, 3.0]
    let replaced: Publishers.Sequence<[Double?], Never> = numbers.publisher.replaceNil(with: 0.0)
    var printed = ""
    let cancellable = replaced.sink { print(String(describing: $0), terminator: " ", to: &printed) }
    XCTAssertEqual(printed, "Optional(1.0) Optional(2.0) Optional(0.0) Optional(3.0) ")
    cancellable.cancel()
  }
}
