import Confluence
import ConfluenceTesting
import XCTest

private struct Roll: Equatable {
  let die1: Int
  let die2: Int
  let die3: Int
}

/// `map(_:)` with one, two and three key paths (`MapKeyPath`, `MapKeyPath2`, `MapKeyPath3`).
final class MapKeyPathTests: XCTestCase {
  private let rolls = [Roll(die1: 1, die2: 2, die3: 3), Roll(die1: 4, die2: 5, die3: 6)]

  func test_oneKeyPath_publishesProperty() {
    let subscriber = TestSubscriber<Int, Never>()
    let publisher: Publishers.MapKeyPath<Publishers.Sequence<[Roll], Never>, Int> = rolls.publisher.map(\.die2)
    publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [2, 5])
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(publisher.keyPath, \Roll.die2)
  }

  func test_twoKeyPaths_publishTuple() {
    let subscriber = TestSubscriber<(Int, Int), Never>()
    let publisher: Publishers.MapKeyPath2<Publishers.Sequence<[Roll], Never>, Int, Int> =
      rolls.publisher.map(\.die1, \.die3)
    publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.values.map { [$0.0, $0.1] }, [[1, 3], [4, 6]])
    XCTAssertEqual(subscriber.eventDescriptions.last, "completion(finished)")
  }

  func test_threeKeyPaths_publishTuple() {
    let subscriber = TestSubscriber<(Int, Int, Int), Never>()
    let publisher: Publishers.MapKeyPath3<Publishers.Sequence<[Roll], Never>, Int, Int, Int> =
      rolls.publisher.map(\.die3, \.die2, \.die1)
    publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.values.map { [$0.0, $0.1, $0.2] }, [[3, 2, 1], [6, 5, 4]])
  }

  func test_passesDemandAndSubscriptionThrough_finiteDemand() {
    let upstream = ScriptedUpstream<Roll, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(1))
    upstream.map(\.die1).subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "ScriptedUpstream")
    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requested, [.max(2)])
    XCTAssertEqual(upstream.send(rolls[0]), .max(1))
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Roll, TestError>()
    let one = TestSubscriber<Int, TestError>()
    upstream.map(\.die1).subscribe(one)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(one.completion, .failure(TestError("boom")))

    let pairs = ScriptedUpstream<Roll, TestError>()
    let two = TestSubscriber<(Int, Int), TestError>()
    pairs.map(\.die1, \.die2).subscribe(two)
    pairs.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(two.eventDescriptions, ["subscription(ScriptedUpstream)", "completion(failure(boom))"])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Roll, Never>()
    let subscriber = TestSubscriber<(Int, Int, Int), Never>(initialDemand: .none)
    upstream.map(\.die1, \.die2, \.die3).subscribe(subscriber)
    subscriber.cancel()
    upstream.send(rolls[0])
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(ScriptedUpstream)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    rolls.publisher.map(\.die1).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_description() {
    let upstream = ScriptedUpstream<Roll, Never>()
    upstream.map(\.die1).subscribe(TestSubscriber<Int, Never>())
    XCTAssertEqual(upstream.subscriberDescription, "ValueForKey")
  }

  func test_releasesChain_onCancel() {
    let upstream = ScriptedUpstream<Roll, Never>()
    let subscriber = TestSubscriber<(Int, Int), Never>()
    upstream.map(\.die1, \.die2).subscribe(subscriber)
    subscriber.cancel()
    XCTAssertFalse(upstream.hasSubscriber)
  }

  /// Apple's documentation examples, with the dice fixed instead of random.
  func test_appleExamples_diceRolls() {
    var printed = ""
    var cancellables: [AnyCancellable] = []
    Just(Roll(die1: 3, die2: 6, die3: 4)).map(\.die1)
      .sink { print("Rolled: \($0)", to: &printed) }
      .store(in: &cancellables)
    Just(Roll(die1: 6, die2: 4, die3: 1)).map(\.die1, \.die2)
      .sink { values in print("Rolled: \(values.0), \(values.1) (total: \(values.0 + values.1))", to: &printed) }
      .store(in: &cancellables)
    Just(Roll(die1: 5, die2: 4, die3: 2)).map(\.die1, \.die2, \.die3)
      .sink { values in
        print("Rolled: \(values.0), \(values.1), \(values.2) (total \(values.0 + values.1 + values.2))", to: &printed)
      }
      .store(in: &cancellables)
    XCTAssertEqual(printed, "Rolled: 3\nRolled: 6, 4 (total: 10)\nRolled: 5, 4, 2 (total 11)\n")
  }
}
