import ConfluenceTesting
import XCTest

@testable import Confluence

final class AnyPublisherTests: XCTestCase {
  func test_passesEventsThrough_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).eraseToAnyPublisher().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value(1), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_passesDemandThrough_noneThenMaxOneThenMore() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    AnyPublisher([1, 2, 3].publisher).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    subscriber.request(.max(5))
    XCTAssertEqual(
      subscriber.events, [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1), .max(5)])
  }

  func test_passesFailureThrough() {
    let subscriber = TestSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: TestError("erased")).eraseToAnyPublisher().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("erased")))])
  }

  func test_passesCancelThrough() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    [1, 2, 3].publisher.eraseToAnyPublisher().subscribe(subscriber)
    subscriber.cancel()
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]"), .value(1)])
  }

  func test_description_isAnyPublisher() {
    let erased = Just(1).eraseToAnyPublisher()
    XCTAssertEqual(erased.description, "AnyPublisher")
    XCTAssertEqual(String(describing: erased), "AnyPublisher")
    XCTAssertEqual(erased.playgroundDescription as? String, "AnyPublisher")
  }

  func test_erasingTwice_keepsOneWrapper() {
    let erased = Just(1).eraseToAnyPublisher()
    XCTAssertTrue(erased.eraseToAnyPublisher().box === erased.box)
    XCTAssertTrue(AnyPublisher(erased).box === erased.box)
    XCTAssertTrue(Deferred { erased }.eraseToAnyPublisher().box !== erased.box)
  }

  func test_staticType_isAnyPublisher() {
    let erased: AnyPublisher<String, Never> = Just(1).map { "\($0)" }.eraseToAnyPublisher()
    let subscriber = TestSubscriber<String, Never>()
    erased.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["1"])
  }

  func test_releasesWrappedPublisher_whenDropped() {
    weak var weakFuture: Future<Int, Never>?
    var erased: AnyPublisher<Int, Never>?
    do {
      let future = Future<Int, Never> { $0(.success(1)) }
      weakFuture = future
      erased = future.eraseToAnyPublisher()
    }
    XCTAssertNotNil(weakFuture)
    erased = nil
    XCTAssertNil(weakFuture)
    _ = erased
  }

  func test_sink_onErasedPipeline() {
    func evens() -> AnyPublisher<Int, Never> {
      Publishers.Filter(upstream: (1...6).publisher) { $0.isMultiple(of: 2) }.eraseToAnyPublisher()
    }
    var received: [Int] = []
    let cancellable = evens().sink { received.append($0) }
    XCTAssertEqual(received, [2, 4, 6])
    cancellable.cancel()
  }

  /// A publisher that records the subscriber it is handed.
  private struct RecordingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never
    final class Log { var subscriber: Any? }
    let log = Log()
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      log.subscriber = subscriber
      subscriber.receive(subscription: Subscriptions.empty)
    }
  }

  func test_wrappedPublisher_receivesTheSubscriberErased_withItsIdentityAndDescription() {
    // The subscriber crosses the erasure as an AnySubscriber (so the wrapped publisher's
    // code runs specialised), which keeps what identifies and shows it.
    let publisher = RecordingPublisher()
    let subscriber = TestSubscriber<Int, Never>()
    publisher.eraseToAnyPublisher().subscribe(subscriber)
    let received = publisher.log.subscriber as? AnySubscriber<Int, Never>
    XCTAssertNotNil(received)
    XCTAssertEqual(received?.combineIdentifier, subscriber.combineIdentifier)
    XCTAssertEqual(received.map(String.init(describing:)), String(describing: subscriber))
  }

  func test_wrappedPublisher_receivesASinkAsItself() {
    // A sink needs no AnySubscriber around it: the wrapped publisher gets the sink itself,
    // as with Apple's AnyPublisher, which hands every subscriber on unchanged.
    let publisher = RecordingPublisher()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    publisher.eraseToAnyPublisher().subscribe(sink)
    XCTAssertTrue((publisher.log.subscriber as? Subscribers.Sink<Int, Never>) === sink)

    let viaSink = RecordingPublisher()
    let token = viaSink.eraseToAnyPublisher().sink { _ in }
    XCTAssertTrue(viaSink.log.subscriber is Subscribers.Sink<Int, Never>)
    token.cancel()
  }

  func test_wrappedPublisher_receivesAZipSideAsItself_andTheZipStillPairs() {
    // A side of zip or combineLatest crosses the erasure as itself (no AnySubscriber box),
    // as with Apple's AnyPublisher: the wrapped publisher sees the side's subscriber, which
    // shows itself as the operator.
    let publisher = RecordingPublisher()
    let token = publisher.eraseToAnyPublisher().zip(Just(1)).sink { _ in }
    XCTAssertNotNil(publisher.log.subscriber)
    XCTAssertFalse(publisher.log.subscriber is AnySubscriber<Int, Never>)
    XCTAssertEqual(publisher.log.subscriber.map { String(describing: $0) }, "Zip")
    token.cancel()

    // Values, demand and completion go through the side as through any subscriber.
    func erased(_ values: [Int]) -> AnyPublisher<Int, Never> {
      values.publisher.map { $0 * 10 }.eraseToAnyPublisher()
    }
    var pairs: [String] = []
    var finished = false
    let zipped = erased([1, 2, 3]).zip(erased([4, 5])).sink(
      receiveCompletion: { _ in finished = true }, receiveValue: { pairs.append("\($0.0)+\($0.1)") })
    XCTAssertEqual(pairs, ["10+40", "20+50"])
    XCTAssertTrue(finished)
    zipped.cancel()

    var latest: [Int] = []
    let combined = erased([1, 2]).combineLatest(erased([3]), Just(0).eraseToAnyPublisher()).sink {
      latest.append($0 + $1 + $2)
    }
    XCTAssertEqual(latest, [50])
    combined.cancel()
  }

  func test_sink_onErasedJust_receivesValueAndCompletion() {
    func answer() -> AnyPublisher<Int, Never> { Just(42).eraseToAnyPublisher() }
    var values: [Int] = []
    var completions: [Subscribers.Completion<Never>] = []
    let token = answer().sink(receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
    XCTAssertEqual(values, [42])
    XCTAssertEqual(completions, [.finished])
    token.cancel()
  }

  func test_erasedZipTree_deliversEveryLeafInOrder() {
    // Erased publishers zipped four at a time, level by level, as apps combine a collection.
    var level = (0..<64).map { Just([$0]).eraseToAnyPublisher() }
    while level.count > 1 {
      var next: [AnyPublisher<[Int], Never>] = []
      for i in stride(from: 0, to: level.count, by: 4) {
        let zipped = level[i].zip(level[i + 1], level[i + 2], level[i + 3])
        let joined: ([Int], [Int], [Int], [Int]) -> [Int] = { $0 + $1 + $2 + $3 }
        next.append(zipped.map(joined).eraseToAnyPublisher())
      }
      level = next
    }
    let subscriber = TestSubscriber<[Int], Never>()
    level[0].subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [Array(0..<64)])
    XCTAssertEqual(subscriber.completion, .finished)
  }
}
