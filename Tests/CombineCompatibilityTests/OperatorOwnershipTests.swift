import Combine
import XCTest

/// The operators take the publisher they extend as `consuming` (so that a chain of operators
/// moves each intermediate publisher into the next instead of copying it, once per stage).
/// Callers cannot tell: each shape here is one Apple's code writes, with a publisher used
/// again after an operator was applied to it, and each must compile unchanged and deliver
/// what it would have. The upstreams are `Deferred` where a `Sequence` or `Just` would pick
/// their own eager overloads instead of the operators under test.
final class OperatorOwnershipTests: XCTestCase {
  struct Feed {
    let numbers = Deferred { [1, 2, 3].publisher }

    /// Operators on stored properties in a non-mutating method: the properties stay usable.
    func doubledAndTripled() -> (
      Publishers.Map<Deferred<Publishers.Sequence<[Int], Never>>, Int>, AnyPublisher<Int, Never>
    ) {
      (numbers.map { $0 * 2 }, numbers.map { $0 * 3 }.eraseToAnyPublisher())
    }
  }

  final class Model {
    let subject = CurrentValueSubject<Int, Never>(1)
    var derived: AnyPublisher<Int, Never> { subject.map { $0 + 1 }.filter { $0 > 0 }.eraseToAnyPublisher() }
  }

  func collect<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
    var values: [P.Output] = []
    _ = publisher.sink { values.append($0) }
    return values
  }

  func test_aLetPublisherIsUsedAgainAfterAnOperator() {
    let numbers = Deferred { [1, 2, 3].publisher }
    let doubled = numbers.map { $0 * 2 }
    let evens = numbers.filter { $0 % 2 == 0 }
    let both = numbers.zip(numbers.map { $0 * 10 })
    XCTAssertEqual(collect(doubled), [2, 4, 6])
    XCTAssertEqual(collect(evens), [2])
    XCTAssertEqual(collect(both).map { $0.0 + $0.1 }, [11, 22, 33])
    XCTAssertEqual(collect(numbers), [1, 2, 3])
  }

  func test_operatorsOnStoredPropertiesOfStructsAndClasses() {
    let feed = Feed()
    let (doubled, tripled) = feed.doubledAndTripled()
    XCTAssertEqual(collect(doubled), [2, 4, 6])
    XCTAssertEqual(collect(tripled), [3, 6, 9])
    XCTAssertEqual(collect(feed.numbers), [1, 2, 3])

    let model = Model()
    var seen: [Int] = []
    let first = model.derived.sink { seen.append($0) }
    let second = model.derived.sink { seen.append($0 * 100) }
    model.subject.send(5)
    XCTAssertEqual(seen, [2, 200, 6, 600])
    first.cancel()
    second.cancel()
  }

  func test_aSubjectIsStillTheSameSubjectAfterOperators() {
    let subject = PassthroughSubject<Int, Never>()
    var seen: [String] = []
    let a = subject.map { "a\($0)" }.sink { seen.append($0) }
    let b = subject.compactMap { $0 > 1 ? "b\($0)" : nil }.sink { seen.append($0) }
    subject.send(1)
    subject.send(2)
    XCTAssertEqual(seen, ["a1", "a2", "b2"])
    a.cancel()
    b.cancel()
  }

  func test_genericCodeAndExistentials() {
    func twice<P: Publisher>(_ publisher: P) -> [Int] where P.Output == Int, P.Failure == Never {
      var values: [Int] = []
      _ = publisher.map { $0 * 2 }.sink { values.append($0) }
      _ = publisher.filter { $0 > 1 }.sink { values.append($0) }
      return values
    }
    XCTAssertEqual(twice(Deferred { [1, 2].publisher }), [2, 4, 2])
    // An existential opened for a generic function.
    let existential: any Publisher<Int, Never> = Just(4)
    XCTAssertEqual(twice(existential), [8, 4])
  }

  func test_fusedOperatorsLeaveTheFirstStageUsable() {
    let mapped = Deferred { [1, 2, 3].publisher }.map { $0 + 1 }
    let fused: Publishers.Map<Deferred<Publishers.Sequence<[Int], Never>>, Int> = mapped.map { $0 * 10 }
    let filtered = Deferred { [1, 2, 3, 4].publisher }.filter { $0 > 1 }
    let fusedFilter: Publishers.Filter<Deferred<Publishers.Sequence<[Int], Never>>> = filtered.filter { $0 < 4 }
    XCTAssertEqual(collect(fused), [20, 30, 40])
    XCTAssertEqual(collect(mapped), [2, 3, 4])
    XCTAssertEqual(collect(fusedFilter), [2, 3])
    XCTAssertEqual(collect(filtered), [2, 3, 4])
  }

  func test_anOperatorAsAFunctionValue() {
    let three = Deferred { Just(3) }
    let transform: (@escaping (Int) -> Int) -> Publishers.Map<Deferred<Just<Int>>, Int> = three.map
    XCTAssertEqual(collect(transform { $0 + 1 }), [4])
    XCTAssertEqual(collect(transform { $0 * 3 }), [9])
  }
}
