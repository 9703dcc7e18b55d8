@testable import Confluence
import XCTest

/// Operators keep their upstream subscriptions class-bound (`HeldSubscription`, read out of
/// the existential by its layout): a class instance is held as itself, anything else boxed
/// in a `SubscriptionHolder` that forwards to it. Checked directly, and through `flatMap`
/// and `switchToLatest`, which keep their inner subscriptions that way, with inner
/// publishers whose subscriptions are structures.
final class HeldSubscriptionTests: XCTestCase {
  /// Counts what reached it; shared by the structure subscriptions below.
  private final class Log: @unchecked Sendable {
    var requests: [Subscribers.Demand] = []
    var cancels = 0
  }

  private final class ClassToken: Subscription {
    let log = Log()
    func request(_ demand: Subscribers.Demand) { log.requests.append(demand) }
    func cancel() { log.cancels += 1 }
  }

  private class BaseToken {}

  private final class SubclassToken: BaseToken, Subscription {
    let log = Log()
    func request(_ demand: Subscribers.Demand) { log.requests.append(demand) }
    func cancel() { log.cancels += 1 }
  }

  /// A structure subscription larger than the existential's inline buffer, with its own
  /// identifier and description.
  private struct StructToken: Subscription, CustomStringConvertible {
    let log: Log
    let identifier = CombineIdentifier()
    var padding: (Int, Int, Int, Int) = (1, 2, 3, 4)
    var combineIdentifier: CombineIdentifier { identifier }
    var description: String { "StructToken" }
    func request(_ demand: Subscribers.Demand) { log.requests.append(demand) }
    func cancel() { log.cancels += 1 }
  }

  /// A publisher that hands each subscriber a `StructToken`, sends `values` (its
  /// subscribers here ask for everything at once) and does not finish.
  private struct StructTokenPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let log: Log
    let values: [Int]

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      subscriber.receive(subscription: StructToken(log: log))
      for value in values { _ = subscriber.receive(value) }
    }
  }

  func test_aClassSubscriptionIsHeldAsItself_andLetGoWithTheStatus() {
    weak var released: ClassToken?
    do {
      let token = ClassToken()
      released = token
      var status = SubscriptionStatus.awaitingSubscription
      XCTAssertTrue(status.accept(token))
      XCTAssertFalse(status.accept(ClassToken()), "a second subscription is refused")
      XCTAssertTrue(status.subscription === token)
      status.request(.max(3))
      XCTAssertEqual(token.log.requests, [.max(3)])
      status.take().cancelSubscription()
      XCTAssertEqual(token.log.cancels, 1)
      XCTAssertNil(status.subscription)
    }
    XCTAssertNil(released, "the status kept no reference after it was taken")
  }

  func test_aSubclassInstanceIsHeldAsItself() {
    let token = SubclassToken()
    let held = holdSubscription(token)
    XCTAssertTrue(held === token)
    held.request(.unlimited)
    held.cancel()
    XCTAssertEqual(token.log.requests, [.unlimited])
    XCTAssertEqual(token.log.cancels, 1)
  }

  func test_aStructureSubscriptionIsBoxed_andTheBoxForwardsEverything() {
    let log = Log()
    let token = StructToken(log: log)
    let held = holdSubscription(token)
    XCTAssertTrue(held is SubscriptionHolder)
    XCTAssertEqual(held.combineIdentifier, token.combineIdentifier)
    XCTAssertEqual(String(describing: held), "StructToken")
    held.request(.max(2))
    held.cancel()
    XCTAssertEqual(log.requests, [.max(2)])
    XCTAssertEqual(log.cancels, 1)
  }

  func test_subscriptionsToCancel_cancelsInOrder_firstThenAppendedThenLast() {
    var order: [String] = []
    final class Named: Subscription {
      let name: String
      let record: (String) -> Void
      init(_ name: String, _ record: @escaping (String) -> Void) {
        self.name = name
        self.record = record
      }
      func request(_ demand: Subscribers.Demand) {}
      func cancel() { record(name) }
    }
    let record = { (name: String) in order.append(name) }
    var upstream = SubscriptionStatus.awaitingSubscription
    _ = upstream.accept(Named("upstream", record))
    var cancelling = SubscriptionsToCancel(last: upstream.take())
    cancelling.reserveCapacity(3)
    for name in ["a", "b", "c"] { cancelling.append(holdSubscription(Named(name, record))) }
    cancelling.cancel()
    XCTAssertEqual(order, ["a", "b", "c", "upstream"])
  }

  func test_flatMap_requestsFromAndCancelsAStructureInnerSubscription() {
    let log = Log()
    let upstream = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = upstream.flatMap(maxPublishers: .max(1)) { value in
      StructTokenPublisher(log: log, values: [value, value * 10])
    }.sink { received.append($0) }
    upstream.send(1)
    XCTAssertEqual(received, [1, 10])
    XCTAssertEqual(log.requests, [.unlimited], "the inner was asked through the held box")
    XCTAssertEqual(log.cancels, 0)
    cancellable.cancel()
    XCTAssertEqual(log.cancels, 1, "cancelling the pipeline reached the structure subscription")
  }

  func test_switchToLatest_cancelsAStructureInnerSubscriptionWhenTheNextArrives() {
    let log = Log()
    let upstream = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = upstream.map { value in
      StructTokenPublisher(log: log, values: [value])
    }.switchToLatest().sink { received.append($0) }
    upstream.send(1)
    XCTAssertEqual(log.cancels, 0)
    upstream.send(2)
    XCTAssertEqual(log.cancels, 1, "the previous inner's structure subscription was cancelled")
    XCTAssertEqual(received, [1, 2])
    cancellable.cancel()
    XCTAssertEqual(log.cancels, 2)
  }

  func test_zip_requestsFromAndCancelsAStructureSide() {
    let log = Log()
    let other = PassthroughSubject<Int, Never>()
    var received: [[Int]] = []
    let cancellable = StructTokenPublisher(log: log, values: [1, 2]).zip(other).sink { received.append([$0, $1]) }
    other.send(10)
    XCTAssertEqual(received, [[1, 10]], "the structure side's first value paired with the subject's")
    XCTAssertEqual(log.requests, [.unlimited])
    XCTAssertEqual(log.cancels, 0)
    cancellable.cancel()
    XCTAssertEqual(log.cancels, 1, "cancelling the zip reached the structure side")
  }

  func test_zip_aJustThatFinishesEndsTheZip_andCancelsTheStructureSide() {
    let log = Log()
    var received: [[Int]] = []
    var finished = false
    let cancellable = StructTokenPublisher(log: log, values: [1, 2]).zip(Just(10)).sink(
      receiveCompletion: { _ in finished = true }, receiveValue: { received.append([$0, $1]) })
    XCTAssertEqual(received, [[1, 10]])
    XCTAssertTrue(finished, "the Just finished with nothing buffered: the zip finished")
    XCTAssertEqual(log.cancels, 1, "and cancelled the structure side, still running")
    withExtendedLifetime(cancellable) {}
  }
}
