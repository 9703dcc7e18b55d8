import Confluence
import ConfluenceTesting
import XCTest

final class CombineLatestTests: XCTestCase {
  private func text(_ values: [(Int, String)]) -> [String] {
    values.map { "\($0.0)\($0.1)" }
  }

  func test_emitsLatestCombinationOnceEverySideHasAValue() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    numbers.combineLatest(letters).subscribe(subscriber)
    numbers.send(1)
    numbers.send(2)
    XCTAssertEqual(subscriber.values.count, 0)
    letters.send("a")
    numbers.send(3)
    letters.send("b")
    XCTAssertEqual(text(subscriber.values), ["2a", "3a", "3b"])
    XCTAssertEqual(subscriber.subscriptionDescription, "CombineLatest")
  }

  // Values that arrive during a delivery (here re-entrantly, from inside downstream's
  // `receive(_:)`) form one combination each, delivered in order after it, while there is
  // demand (Apple's combineLatest drops values only when demand runs out); without demand
  // they coalesce into the newest.

  /// From inside the delivery of `(1, "a")`: sends 2 and 3 through `numbers`, then "b"
  /// through `letters`.
  private func sendDuringTheFirstDelivery(
    to subscriber: TestSubscriber<(Int, String), TestError>, numbers: @escaping (Int) -> Void,
    letters: @escaping (String) -> Void
  ) {
    subscriber.onValue = { value in
      if value == (1, "a") {
        numbers(2)
        numbers(3)
        letters("b")
      }
      return .none
    }
  }

  func test_valuesArrivingDuringADelivery_withDemand_oneCombinationEachInOrder() {
    let numbers = PassthroughSubject<Int, TestError>()
    let letters = PassthroughSubject<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    sendDuringTheFirstDelivery(to: subscriber, numbers: numbers.send, letters: letters.send)
    numbers.combineLatest(letters).subscribe(subscriber)
    numbers.send(1)
    letters.send("a")
    XCTAssertEqual(text(subscriber.values), ["1a", "2a", "3a", "3b"])
  }

  func test_valuesArrivingDuringADelivery_demandRunningOut_coalesceIntoTheNewest() {
    // Manual publishers send whatever they are told, asked or not (subjects would hold
    // back what combineLatest did not ask them for).
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>(initialDemand: .max(2))
    sendDuringTheFirstDelivery(to: subscriber, numbers: numbers.send, letters: letters.send)
    numbers.combineLatest(letters).subscribe(subscriber)
    numbers.send(1)
    letters.send("a")
    // The second unit of demand takes "2a"; "3a" and "3b" then wait without demand, and
    // only the newest is kept for the next request.
    XCTAssertEqual(text(subscriber.values), ["1a", "2a"])
    subscriber.request(.max(5))
    XCTAssertEqual(text(subscriber.values), ["1a", "2a", "3b"])
  }

  func test_finishesOnlyWhenAllFinish() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    numbers.combineLatest(letters).subscribe(subscriber)
    numbers.send(1)
    numbers.finish()
    letters.send("a")
    letters.send("b")
    XCTAssertNil(subscriber.completion, "the other side keeps going")
    letters.finish()
    XCTAssertEqual(text(subscriber.values), ["1a", "1b"])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_failure_failsAndCancelsTheOther() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    numbers.combineLatest(letters).subscribe(subscriber)
    numbers.fail(TestError("numbers"))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(CombineLatest)", "completion(failure(numbers))"])
    XCTAssertEqual(letters.cancels, 1)
  }

  func test_noDemand_remembersLatestAndSendsItOnRequest() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>(initialDemand: .none)
    numbers.combineLatest(letters).subscribe(subscriber)
    numbers.send(1)
    letters.send("a")
    numbers.send(2)
    XCTAssertEqual(subscriber.values.count, 0)
    subscriber.request(.max(1))
    XCTAssertEqual(text(subscriber.values), ["2a"])
    subscriber.request(.max(1))
    XCTAssertEqual(text(subscriber.values), ["2a"], "nothing new to send")
    letters.send("b")
    XCTAssertEqual(text(subscriber.values), ["2a", "2b"])
    XCTAssertEqual(numbers.requested, [.max(1), .max(1)])
  }

  func test_withTransform_andArities() {
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).combineLatest(Just(2)) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [3])
    XCTAssertEqual(subscriber.completion, .finished)
    let three = TestSubscriber<Int, Never>()
    Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }.subscribe(three)
    XCTAssertEqual(three.values, [6])
    let four = TestSubscriber<Int, Never>()
    Just(1).combineLatest(Just(2), Just(3), [4, 5].publisher) { $0 + $1 + $2 + $3 }.subscribe(four)
    XCTAssertEqual(four.values, [10, 11])
    XCTAssertEqual(four.completion, .finished)
    let typed: Publishers.CombineLatest3<Just<Int>, Just<Int>, Just<Int>> = Just(1).combineLatest(Just(2), Just(3))
    XCTAssertEqual(typed, Publishers.CombineLatest3(Just(1), Just(2), Just(3)))
  }

  func test_cancelInsideReceive() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    numbers.combineLatest(letters).subscribe(subscriber)
    numbers.send(1)
    letters.send("a")
    letters.send("b")
    XCTAssertEqual(subscriber.values.count, 1)
    XCTAssertEqual(numbers.cancels, 1)
    XCTAssertEqual(letters.cancels, 1)
  }

  func test_cancel_releasesLatestValues() {
    let tracker = LifetimeTracker()
    let objects = ManualPublisher<LifetimeTracker.Tracked, TestError>()
    let other = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<(LifetimeTracker.Tracked, Int), TestError>(initialDemand: .none)
    objects.combineLatest(other).subscribe(subscriber)
    objects.send(tracker.make())
    XCTAssertEqual(tracker.liveCount, 1)
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Built by generic code the compiler does not specialise: the logic then reads and writes
  /// its latest values through its slot types (`OptionalValue`), and must combine, keep and
  /// release them as specialised code does.
  @_semantics("optimize.sil.specialize.generic.never")
  private func combinedInGenericCode<P: Publisher, Q: Publisher>(_ p: P, _ q: Q) -> Publishers.CombineLatest<P, Q>
  where P.Failure == Q.Failure {
    p.combineLatest(q)
  }

  func test_builtByUnspecialisedGenericCode_latestValuesCopiedNotTaken_replacedOnesReleased() {
    let tracker = LifetimeTracker()
    let objects = ManualPublisher<LifetimeTracker.Tracked, TestError>()
    let letters = ManualPublisher<String, TestError>()
    var seen: [(ObjectIdentifier, String)] = []
    let cancellable = combinedInGenericCode(objects, letters).sink(
      receiveCompletion: { _ in }, receiveValue: { seen.append((ObjectIdentifier($0.0), $0.1)) })
    var first: LifetimeTracker.Tracked? = tracker.make()
    let firstID = ObjectIdentifier(first!)
    objects.send(first!)
    letters.send("a")
    letters.send("b")
    XCTAssertEqual(seen.map(\.0), [firstID, firstID], "the latest object, combined twice")
    XCTAssertEqual(seen.map(\.1), ["a", "b"])
    first = nil
    XCTAssertEqual(tracker.liveCount, 1, "kept as the latest value")
    objects.send(tracker.make())
    XCTAssertEqual(seen.map(\.1), ["a", "b", "b"])
    XCTAssertNotEqual(seen.last?.0, firstID)
    XCTAssertEqual(tracker.liveCount, 1, "the replaced latest object released, the new one kept")
    cancellable.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
