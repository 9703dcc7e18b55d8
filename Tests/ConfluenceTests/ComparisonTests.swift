import Confluence
import ConfluenceTesting
import XCTest

final class ComparisonTests: XCTestCase {
  enum Rank: Int {
    case ace = 1
    case two, three, four, five, six, seven, eight, nine, ten, jack, queen, king
  }

  struct Item: Equatable {
    let property1: Int
    let tag: String
  }

  func test_min_appleExample() {
    let subscriber = TestSubscriber<Int, Never>()
    [-1, 0, 10, 5].genericPublisher.min().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Comparison"), .value(-1), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_max_appleExample() {
    let subscriber = TestSubscriber<Int, Never>()
    [0, 10, 5].genericPublisher.max().subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [10])
  }

  func test_minBy_maxBy_appleRankExamples() {
    let minimum = TestSubscriber<Rank, Never>()
    [Rank.five, .queen, .ace, .eight, .king].genericPublisher.min { $0.rawValue < $1.rawValue }.subscribe(minimum)
    XCTAssertEqual(minimum.values, [.ace])

    let maximum = TestSubscriber<Rank, Never>()
    [Rank.five, .queen, .ace, .eight, .jack].genericPublisher.max { $0.rawValue > $1.rawValue }.subscribe(maximum)
    XCTAssertEqual(maximum.values, [.ace])
  }

  func test_bookExample_closureOrdering_andTiesKeepTheFirst() {
    // "Using Combine", reference chapter, "max"/"min" with a closure over property1.
    let items = [
      Item(property1: 2, tag: "a"), Item(property1: 7, tag: "b"), Item(property1: 7, tag: "c"),
      Item(property1: 2, tag: "d"),
    ]
    let maximum = TestSubscriber<Item, Never>()
    items.genericPublisher.max { (struct1, struct2) -> Bool in
      return struct1.property1 < struct2.property1
    }.subscribe(maximum)
    XCTAssertEqual(maximum.values.map(\.tag), ["b"])

    let minimum = TestSubscriber<Item, Never>()
    items.genericPublisher.min { (struct1, struct2) -> Bool in
      return struct1.property1 < struct2.property1
    }.subscribe(minimum)
    XCTAssertEqual(minimum.values.map(\.tag), ["a"])
  }

  func test_emptyUpstream_justFinishes() {
    let subscriber = TestSubscriber<Int, Never>()
    [Int]().genericPublisher.max().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Comparison"), .completion(.finished)])
  }

  func test_waitsForDemand_max1() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.min().subscribe(subscriber)
    upstream.send(3)
    upstream.send(1)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Comparison")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Comparison"), .value(1), .completion(.finished)])
  }

  func test_upstreamFailure_publishesNothing() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.max().subscribe(subscriber)
    upstream.send(3)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("Comparison"), .completion(.failure(TestError()))])
  }

  func test_cancel_beforeFinish() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.max().subscribe(subscriber)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.events, [.subscription("Comparison")])
  }
}
