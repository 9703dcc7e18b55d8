import Confluence
import ConfluenceExtras
import ConfluenceTesting
import Foundation
import Synchronization
import XCTest

/// The extras' bridges to Swift concurrency: `values(bufferingPolicy:)`,
/// `Publishers.FromAsync` and `AsyncSequence.publisher`.
final class AsyncBridgesTests: XCTestCase {
  /// Waits until `condition` holds (or about a second passes).
  private func eventually(_ condition: () -> Bool) {
    for _ in 0..<500 where !condition() { usleep(2_000) }
  }

  func test_valuesUnbounded_losesNothingAFastPublisherSends() async {
    let subject = PassthroughSubject<Int, Never>()
    let stream = subject.values(bufferingPolicy: .unbounded)
    for i in 1...100 { subject.send(i) }
    subject.send(completion: .finished)
    var received: [Int] = []
    for await value in stream { received.append(value) }
    XCTAssertEqual(received, Array(1...100))
  }

  func test_valuesBufferingNewest_keepsTheLatest() async {
    let subject = PassthroughSubject<Int, Never>()
    let stream = subject.values(bufferingPolicy: .bufferingNewest(2))
    for i in 1...10 { subject.send(i) }
    subject.send(completion: .finished)
    var received: [Int] = []
    for await value in stream { received.append(value) }
    XCTAssertEqual(received, [9, 10])
  }

  func test_valuesThrowing_throwsTheFailure() async {
    let stream = [1, 2].publisher.setFailureType(to: TestError.self).append(Fail(error: TestError("x")))
      .values(bufferingPolicy: .unbounded)
    var received: [Int] = []
    do {
      for try await value in stream { received.append(value) }
      XCTFail("no failure")
    } catch {
      XCTAssertEqual(error as? TestError, TestError("x"))
    }
    XCTAssertEqual(received, [1, 2])
  }

  func test_values_endingTheLoop_cancelsTheSubscription() async {
    let subject = PassthroughSubject<Int, Never>()
    let cancelled = Mutex(false)
    func firstValue() async -> Int? {
      let stream = subject.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
        .values(bufferingPolicy: .unbounded)
      subject.send(1)
      subject.send(2)
      for await value in stream { return value }
      return nil
    }
    let first = await firstValue()
    XCTAssertEqual(first, 1)
    for _ in 0..<500 where !cancelled.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
    XCTAssertTrue(cancelled.withLock { $0 }, "the stream's end cancelled the subscription")
  }

  func test_fromAsync_runsOnDemand_publishesTheResult() {
    let runs = Mutex(0)
    let publisher = Publishers.FromAsync { () async throws -> Int in
      runs.withLock { $0 += 1 }
      try await Task.sleep(for: .milliseconds(10))
      return 42
    }
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    publisher.subscribe(subscriber)
    usleep(50_000)
    XCTAssertEqual(runs.withLock { $0 }, 0, "nothing runs before demand")
    subscriber.request(.max(1))
    eventually { subscriber.completion != nil }
    XCTAssertEqual(subscriber.values, [42])
    XCTAssertEqual(runs.withLock { $0 }, 1)
    guard case .finished? = subscriber.completion else { return XCTFail("not finished") }
  }

  func test_fromAsync_thrownError_isTheFailure() {
    let subscriber = TestSubscriber<Int, any Error>()
    Publishers.FromAsync { () async throws -> Int in throw TestError("boom") }.subscribe(subscriber)
    eventually { subscriber.completion != nil }
    guard case .failure(let error)? = subscriber.completion else { return XCTFail("no failure") }
    XCTAssertEqual(error as? TestError, TestError("boom"))
  }

  func test_fromAsync_cancel_cancelsTheTask() {
    let sawCancellation = Mutex(false)
    let subscriber = TestSubscriber<Int, any Error>()
    Publishers.FromAsync { () async throws -> Int in
      do {
        try await Task.sleep(for: .seconds(5))
      } catch {
        sawCancellation.withLock { $0 = true }
        throw error
      }
      return 1
    }.subscribe(subscriber)
    usleep(50_000)
    subscriber.cancel()
    eventually { sawCancellation.withLock { $0 } }
    XCTAssertTrue(sawCancellation.withLock { $0 })
    XCTAssertEqual(subscriber.values, [])
    XCTAssertNil(subscriber.completion)
  }

  /// Counts how many elements were pulled.
  private final class Counter: Sendable {
    let value = Mutex(0)
  }

  private struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let counter = Counter()
    let limit: Int
    init(limit: Int) {
      self.limit = limit
    }
    struct AsyncIterator: AsyncIteratorProtocol {
      let sequence: CountingSequence
      mutating func next() async -> Int? {
        let n = sequence.counter.value.withLock {
          $0 += 1; return $0
        }
        return n <= sequence.limit ? n : nil
      }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
  }

  func test_asyncSequencePublisher_iteratesOnlyOnDemand() {
    let sequence = CountingSequence(limit: 10)
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2))
    sequence.publisher.subscribe(subscriber)
    eventually { subscriber.values.count == 2 }
    usleep(50_000)
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(sequence.counter.value.withLock { $0 }, 2, "no element pulled without demand")
    subscriber.request(.unlimited)
    eventually { subscriber.completion != nil }
    XCTAssertEqual(subscriber.values, Array(1...10))
    guard case .finished? = subscriber.completion else { return XCTFail("not finished") }
  }

  func test_asyncSequencePublisher_cancel_stopsIterating() {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let subscriber = TestSubscriber<Int, any Error>()
    stream.publisher.subscribe(subscriber)
    continuation.yield(1)
    eventually { subscriber.values == [1] }
    subscriber.cancel()
    continuation.yield(2)
    usleep(50_000)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertNil(subscriber.completion)
    continuation.finish()
  }
}
