import Confluence
import ConfluenceTesting
import XCTest

final class JustTests: XCTestCase {
  func test_deliversValueThenFinishes_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    Just(42).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value(42), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_waitsForDemand_noInitialDemand() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(1).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Just")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value(1), .completion(.finished)])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_cancelBeforeDemand_sendsNothing() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(1).subscribe(subscriber)
    subscriber.cancel()
    XCTAssertEqual(subscriber.events, [.subscription("Just")])
  }

  func test_cancelInsideReceive_stillCompletesOnce() {
    let subscriber = TestSubscriber<Int, Never>(strictCancellation: false)
    subscriber.onValue = { _ in subscriber.cancel(); return .none }
    Just(1).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_equatable() {
    XCTAssertEqual(Just(1), Just(1))
    XCTAssertNotEqual(Just(1), Just(2))
  }

  func test_sinkReceivesValue() {
    var received: [Int] = []
    var completions = 0
    _ = Just(7).sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { received.append($0) })
    XCTAssertEqual(received, [7])
    XCTAssertEqual(completions, 1)
  }
}
