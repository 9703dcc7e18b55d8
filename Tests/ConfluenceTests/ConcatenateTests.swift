import Confluence
import ConfluenceTesting
import XCTest

final class ConcatenateTests: XCTestCase {
  func test_appendValues_appleExample() {
    let subscriber = TestSubscriber<Int, Never>()
    (0...10).publisher.append(0, 1, 255).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 1, 255])
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.subscriptionDescription, "Concatenate")
  }

  func test_appendSequence_appleExample() {
    let groundTransport = ["car", "bus", "truck", "subway", "bicycle"]
    let airTransport = ["parasail", "jet", "helicopter", "rocket"]
    let subscriber = TestSubscriber<String, Never>()
    groundTransport.publisher.append(airTransport).subscribe(subscriber)
    XCTAssertEqual(
      subscriber.values.joined(separator: " "), "car bus truck subway bicycle parasail jet helicopter rocket")
  }

  func test_appendPublisher_appleExample() {
    let subscriber = TestSubscriber<Int, Never>()
    (0...10).publisher.append((25...35).publisher).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, Array(0...10) + Array(25...35))
  }

  func test_prependValuesSequenceAndPublisher() {
    let values = TestSubscriber<String, Never>()
    ["three"].publisher.prepend("one", "two").subscribe(values)
    XCTAssertEqual(values.values, ["one", "two", "three"])

    // "Using Combine", reference chapter, "prepend": secondPublisher.prepend(["one", "two"]).
    let sequence = TestSubscriber<String, Never>()
    ["three"].publisher.prepend(["one", "two"]).subscribe(sequence)
    XCTAssertEqual(sequence.values, ["one", "two", "three"])

    let publisher = TestSubscriber<Int, Never>()
    (0...2).publisher.prepend((25...26).publisher).subscribe(publisher)
    XCTAssertEqual(publisher.values, [25, 26, 0, 1, 2])
  }

  func test_directForm_equalsPrepend() {
    // "Using Combine": Publishers.Concatenate(prefix: first, suffix: second) == second.prepend(first).
    let first = [1, 2].publisher
    let second = [3].publisher
    XCTAssertEqual(Publishers.Concatenate(prefix: first, suffix: second), second.prepend(first))
  }

  func test_carriesDemandAcrossTheSwitch_finiteDemand() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    [1, 2, 3].publisher.append(4, 5).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
    subscriber.request(.max(2))
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4])
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events.count, 1 + 5 + 1)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.demands, [.max(2), .max(2), .max(1)])
  }

  func test_suffixSubscribedOnlyAfterPrefixFinishes() {
    let prefix = ScriptedPublisher<Int, TestError>()
    let suffix = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
    prefix.append(suffix).subscribe(subscriber)
    prefix.send(1)
    XCTAssertEqual(suffix.subscriptionCount, 0)
    prefix.send(completion: .finished)
    XCTAssertEqual(suffix.subscriptionCount, 1)
    XCTAssertEqual(suffix.requests, [.max(2)])
    suffix.send(2)
    suffix.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Concatenate"), .value(1), .value(2), .completion(.finished)])
  }

  func test_prefixFailure_skipsSuffix() {
    let prefix = ScriptedPublisher<Int, TestError>()
    let suffix = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    prefix.append(suffix).subscribe(subscriber)
    prefix.send(completion: .failure(TestError()))
    XCTAssertEqual(suffix.subscriptionCount, 0)
    XCTAssertEqual(subscriber.events, [.subscription("Concatenate"), .completion(.failure(TestError()))])
  }

  func test_suffixFailure_isForwarded() {
    let suffix = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    suffix.prepend(1).subscribe(subscriber)
    suffix.send(completion: .failure(TestError("late")))
    XCTAssertEqual(
      subscriber.events, [.subscription("Concatenate"), .value(1), .completion(.failure(TestError("late")))])
  }

  func test_cancel_duringPrefixAndDuringSuffix() {
    let prefix = ScriptedPublisher<Int, Never>()
    let suffix = ScriptedPublisher<Int, Never>()
    let first = TestSubscriber<Int, Never>()
    prefix.append(suffix).subscribe(first)
    first.cancel()
    XCTAssertEqual(prefix.cancelCount, 1)

    let second = TestSubscriber<Int, Never>()
    prefix.append(suffix).subscribe(second)
    prefix.send(completion: .finished)
    second.cancel()
    XCTAssertEqual(suffix.cancelCount, 1)
    XCTAssertFalse(suffix.holdsSubscriber)
  }

  func test_cancelInsideReceive_stopsSuffix() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { value in
      if value == 3 { subscriber.cancel() }
      return .none
    }
    [1, 2].publisher.append(3, 4).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertNil(subscriber.completion)
  }

  func test_noDemand_sendsNothing() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    // A range, not an array: on an array `append` is Apple's eager `Publishers.Sequence` overload.
    (1...1).publisher.append(2).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Concatenate")])
  }

  func test_emptyPrefix_goesStraightToSuffix() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    (0..<0).publisher.append(7, 8).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Concatenate"), .value(7)])
  }
}
