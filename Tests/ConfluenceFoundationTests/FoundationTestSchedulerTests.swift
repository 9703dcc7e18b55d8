import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import XCTest

/// Code written against the Foundation schedulers' time types runs on virtual time.
final class FoundationTestSchedulerTests: XCTestCase {
  /// A typical piece of app code: generic over a scheduler with DispatchQueue's types.
  private func searchResults<S: Scheduler>(
    for queries: PassthroughSubjectStandIn, on scheduler: S
  ) -> AnyPublisher<String, Never> where S.SchedulerTimeType == DispatchQueue.SchedulerTimeType {
    queries.publisher.debounce(for: .milliseconds(300), scheduler: scheduler).eraseToAnyPublisher()
  }

  func test_dispatchQueueTimeTypes_debounceOnVirtualTime() {
    let scheduler = TestScheduler.dispatchQueue()
    let queries = PassthroughSubjectStandIn()
    var results: [String] = []
    let cancellable = searchResults(for: queries, on: scheduler).sink { results.append($0) }
    queries.send("s")
    scheduler.advance(by: .milliseconds(100))
    queries.send("sw")
    scheduler.advance(by: .milliseconds(299))
    XCTAssertEqual(results, [])
    scheduler.advance(by: .milliseconds(1))
    XCTAssertEqual(results, ["sw"])
    cancellable.cancel()
  }

  func test_runLoopAndOperationQueueTimeTypes_delayOnVirtualTime() {
    let runLoop = TestScheduler.runLoop()
    let operationQueue = TestScheduler.operationQueue()
    var received: [String] = []
    let first = Just("run loop").delay(for: .seconds(2), scheduler: runLoop).sink { received.append($0) }
    let second = Just("operation queue").delay(for: .seconds(1), scheduler: operationQueue).sink { received.append($0) }
    operationQueue.advance(by: .seconds(1))
    XCTAssertEqual(received, ["operation queue"])
    runLoop.advance(by: .seconds(1.5))
    XCTAssertEqual(received, ["operation queue"])
    runLoop.advance(by: .seconds(0.5))
    XCTAssertEqual(received, ["operation queue", "run loop"])
    XCTAssertEqual(runLoop.now, RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 2)))
    first.cancel()
    second.cancel()
  }
}

/// A minimal hand-driven source of strings (subjects are tested elsewhere).
final class PassthroughSubjectStandIn {
  private var receive: ((String) -> Void)?

  var publisher: AnyPublisher<String, Never> {
    AnyPublisher(Source(owner: self))
  }

  func send(_ value: String) { receive?(value) }

  private struct Source: Publisher {
    typealias Output = String
    typealias Failure = Never
    let owner: PassthroughSubjectStandIn
    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == Never {
      owner.receive = { _ = subscriber.receive($0) }
      subscriber.receive(subscription: Subscriptions.empty)
    }
  }
}
