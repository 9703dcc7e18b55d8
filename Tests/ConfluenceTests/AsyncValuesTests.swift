import Confluence
import ConfluenceTesting
import Foundation
import Synchronization
import XCTest

/// `values` (AsyncPublisher / AsyncThrowingPublisher) and `Future.value`: what a loop
/// receives, how much it asks for, and what cancelling and failing do.
final class AsyncValuesTests: XCTestCase {
  /// An upstream the test drives by hand, from any task: records what its subscriber asks.
  private final class HandUpstream: Publisher, @unchecked Sendable {
    // @unchecked Sendable: `subscriber` and `events` are guarded by `lock`.
    typealias Output = Int
    typealias Failure = TestError
    private let lock = NSLock()
    private var subscriber: AnySubscriber<Int, TestError>?
    private var events: [String] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
      lock.withLock { self.subscriber = AnySubscriber(subscriber) }
      subscriber.receive(subscription: Recorder(upstream: self))
    }

    var log: [String] { lock.withLock { events } }
    func note(_ event: String) { lock.withLock { events.append(event) } }

    @discardableResult
    func send(_ value: Int) -> Subscribers.Demand {
      lock.withLock { subscriber }?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<TestError>) {
      lock.withLock { subscriber }?.receive(completion: completion)
    }

    final class Recorder: Subscription, @unchecked Sendable {
      let upstream: HandUpstream
      init(upstream: HandUpstream) { self.upstream = upstream }
      func request(_ demand: Subscribers.Demand) { upstream.note("request \(demand)") }
      func cancel() { upstream.note("cancel") }
    }
  }

  /// Waits (briefly) until `condition` holds.
  private func eventually(_ condition: () -> Bool) async {
    for _ in 0..<500 where !condition() { try? await Task.sleep(for: .milliseconds(2)) }
  }

  func test_forAwait_receivesEveryValue_thenEnds() async {
    var received: [Int] = []
    for await value in (1...5).publisher.values { received.append(value) }
    XCTAssertEqual(received, [1, 2, 3, 4, 5])
  }

  func test_forTryAwait_throwsTheFailure_afterTheValuesBeforeIt() async {
    var received: [Int] = []
    do {
      for try await value in [1, 2].publisher.setFailureType(to: TestError.self).append(Fail(error: TestError("x")))
        .values
      {
        received.append(value)
      }
      XCTFail("no failure")
    } catch {
      XCTAssertEqual(error as? TestError, TestError("x"))
    }
    XCTAssertEqual(received, [1, 2])
  }

  func test_eachNext_asksForOneValue() async throws {
    let upstream = HandUpstream()
    var iterator = upstream.values.makeAsyncIterator()
    XCTAssertEqual(upstream.log, [], "subscribing asks for nothing")
    async let first = iterator.next()
    await eventually { upstream.log.count == 1 }
    XCTAssertEqual(upstream.log, ["request max(1)"])
    upstream.send(7)
    let value = try await first
    XCTAssertEqual(value, 7)
  }

  func test_cancellingTheTask_cancelsTheSubscription_andTheWaitingNextReturnsNil() async {
    let upstream = HandUpstream()
    let iterator = upstream.values.makeAsyncIterator()
    let task = Task {
      var copy = iterator
      return try await copy.next()
    }
    await eventually { upstream.log.count == 1 }
    task.cancel()
    let result: Int?? = try? await task.value
    XCTAssertEqual(result, Int??.some(nil), "next() returned nil")
    XCTAssertEqual(upstream.log, ["request max(1)", "cancel"])
  }

  func test_leavingTheLoopEarly_cancelsUpstream() async {
    let subject = PassthroughSubject<Int, Never>()
    let cancelled = Mutex(false)
    let publisher = subject.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
    let producer = Task {
      for i in 0..<1000 {
        subject.send(i)
        try await Task.sleep(for: .milliseconds(1))
      }
    }
    for await value in publisher.values where value >= 2 { break }
    XCTAssertTrue(cancelled.withLock { $0 }, "the loop's end cancelled the subscription")
    producer.cancel()
  }

  func test_failureWithNobodyWaiting_isThrownByTheNextNext_thenNil() async throws {
    let upstream = HandUpstream()
    var iterator = upstream.values.makeAsyncIterator()
    upstream.send(completion: .failure(TestError("late")))
    do {
      _ = try await iterator.next()
      XCTFail("no failure")
    } catch {
      XCTAssertEqual(error as? TestError, TestError("late"))
    }
    let after = try await iterator.next()
    XCTAssertNil(after)
  }

  func test_futureValue_awaitsThePromise() async throws {
    let future = Future<Int, Never> { promise in
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { promise(.success(42)) }
    }
    let value = await future.value
    XCTAssertEqual(value, 42)
    let failing = Future<Int, TestError> { $0(.failure(TestError("no"))) }
    do {
      _ = try await failing.value
      XCTFail("no failure")
    } catch {
      XCTAssertEqual(error as? TestError, TestError("no"))
    }
  }
}
