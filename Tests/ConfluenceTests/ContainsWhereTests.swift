import Confluence
import ConfluenceTesting
import XCTest

final class ContainsWhereTests: XCTestCase {
  struct IntPair {
    let x: Int
    let y: Int
  }

  func test_appleExample_match() {
    let intPairs = [IntPair(x: 1, y: 1), IntPair(x: 1, y: 2), IntPair(x: 3, y: 2)]
    let subscriber = TestSubscriber<Bool, Never>()
    intPairs.genericPublisher.contains(where: { $0.x == 3 }).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ContainsWhere"), .value(true), .completion(.finished)])
  }

  func test_noMatch_false() {
    let subscriber = TestSubscriber<Bool, Never>()
    [1, 2].genericPublisher.contains { $0 > 5 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [false])
  }

  func test_match_cancelsUpstream_finiteDemand() {
    let upstream = ScriptedPublisher<Int, TestError>()
    var calls = 0
    let subscriber = TestSubscriber<Bool, TestError>(initialDemand: .max(1))
    upstream.contains {
      calls += 1
      return $0 == 2
    }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.values, [true])
  }

  func test_noDemand_failure_andCancel() {
    let held = TestSubscriber<Bool, Never>(initialDemand: .none)
    [1].genericPublisher.contains { $0 == 1 }.subscribe(held)
    XCTAssertEqual(held.events, [.subscription("ContainsWhere")])
    held.cancel()
    held.request(.max(1))
    XCTAssertEqual(held.events, [.subscription("ContainsWhere")])

    let upstream = ScriptedPublisher<Int, TestError>()
    let failed = TestSubscriber<Bool, TestError>()
    upstream.contains { _ in false }.subscribe(failed)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(failed.events, [.subscription("ContainsWhere"), .completion(.failure(TestError()))])
  }
}
