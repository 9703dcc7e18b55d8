import Confluence
import ConfluenceTesting
import XCTest

/// Apple's flatMap and switchToLatest overloads that reconcile a `Never` failure type on one
/// side with a real one on the other: each must type-check to Apple's return type.
final class FailureAdaptingOverloadTests: XCTestCase {
  private typealias Ints = Publishers.Sequence<[Int], Never>

  func test_flatMap_neverUpstream_failingInner() {
    let flat: Publishers.FlatMap<Fail<Int, TestError>, Publishers.SetFailureType<Ints, TestError>> =
      [1, 2].publisher.flatMap { _ in Fail<Int, TestError>(error: TestError("inner")) }
    let subscriber = TestSubscriber<Int, TestError>()
    flat.subscribe(subscriber)
    XCTAssertEqual(subscriber.completion, .failure(TestError("inner")))
  }

  func test_flatMap_failingUpstream_neverInner() {
    let upstream = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
    let flat:
      Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, TestError>, Publishers.Sequence<[Int], TestError>> =
        upstream.flatMap { Just($0 * 10) }
    let subscriber = TestSubscriber<Int, TestError>()
    flat.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [10, 20])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_flatMap_bothNever() {
    let flat: Publishers.FlatMap<Just<Int>, Ints> = [1, 2].publisher.flatMap { Just($0 + 1) }
    let subscriber = TestSubscriber<Int, Never>()
    flat.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [2, 3])
  }

  func test_switchToLatest_neverOuter_failingInner() {
    let outer = [Fail<Int, TestError>(error: TestError("inner"))].publisher
    let switched:
      Publishers.SwitchToLatest<
        Fail<Int, TestError>, Publishers.SetFailureType<Publishers.Sequence<[Fail<Int, TestError>], Never>, TestError>
      > =
        outer.switchToLatest()
    let subscriber = TestSubscriber<Int, TestError>()
    switched.subscribe(subscriber)
    XCTAssertEqual(subscriber.completion, .failure(TestError("inner")))
  }

  func test_switchToLatest_failingOuter_neverInner() {
    let outer = Publishers.Sequence<[Just<Int>], TestError>(sequence: [Just(1), Just(2)])
    let switched = outer.switchToLatest()
    let subscriber = TestSubscriber<Int, TestError>()
    switched.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_switchToLatest_bothNever() {
    let switched: Publishers.SwitchToLatest<Just<Int>, Publishers.Sequence<[Just<Int>], Never>> =
      [Just(1), Just(2)].publisher.switchToLatest()
    let subscriber = TestSubscriber<Int, Never>()
    switched.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
  }
}
