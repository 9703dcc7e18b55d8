import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

final class MaterializeTests: XCTestCase {
  func test_materialize_turnsEventsIntoSignals() {
    let subscriber = TestSubscriber<PublisherEvent<Int, TestError>, Never>()
    Publishers.Sequence<[Int], TestError>(sequence: [1, 2]).materialize().subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [
        .subscription("Materialize"), .value(.output(1)), .value(.output(2)), .value(.completion(.finished)),
        .completion(.finished),
      ])
  }

  func test_materialize_failureBecomesAValue() {
    let upstream = ManualSignalSource()
    let subscriber = TestSubscriber<PublisherEvent<Int, TestError>, Never>()
    upstream.publisher.materialize().subscribe(subscriber)
    upstream.send(1)
    upstream.fail(TestError("boom"))
    XCTAssertEqual(subscriber.values, [.output(1), .completion(.failure(TestError("boom")))])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_materialize_completionSignalWaitsForDemand() {
    let subscriber = TestSubscriber<PublisherEvent<Int, TestError>, Never>(initialDemand: .max(2))
    Publishers.Sequence<[Int], TestError>(sequence: [1, 2]).materialize().subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [.output(1), .output(2)])
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values.last, .completion(.finished))
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_dematerialize_roundTrips() {
    let subscriber = TestSubscriber<Int, TestError>()
    Publishers.Sequence<[Int], TestError>(sequence: [1, 2]).materialize().dematerialize().subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(Dematerialize)", "value(1)", "value(2)", "completion(finished)"])
  }

  func test_dematerialize_failureSignalFailsAndCancelsUpstream() {
    let signals: [PublisherEvent<Int, TestError>] = [.output(1), .completion(.failure(TestError("x"))), .output(2)]
    let subscriber = TestSubscriber<Int, TestError>()
    signals.publisher.dematerialize().subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Dematerialize)", "value(1)", "completion(failure(x))"])
  }

  func test_signalDescriptions() {
    XCTAssertEqual(PublisherEvent<Int, TestError>.output(3).description, "output(3)")
    XCTAssertEqual(
      PublisherEvent<Int, TestError>.completion(.failure(TestError("e"))).description, "completion(failure(e))")
  }
}

/// A hand-driven upstream for the extras tests.
final class ManualSignalSource {
  private var subscriber: ((Int) -> Void, (Subscribers.Completion<TestError>) -> Void)?

  var publisher: AnyPublisher<Int, TestError> {
    AnyPublisher(SourcePublisher(owner: self))
  }

  func send(_ value: Int) { subscriber?.0(value) }
  func fail(_ error: TestError) { subscriber?.1(.failure(error)) }
  func finish() { subscriber?.1(.finished) }

  private struct SourcePublisher: Publisher {
    typealias Output = Int
    typealias Failure = TestError
    let owner: ManualSignalSource
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
      owner.subscriber = ({ _ = subscriber.receive($0) }, { subscriber.receive(completion: $0) })
      subscriber.receive(subscription: Subscriptions.empty)
    }
  }
}
