import Combine
import XCTest

@testable import HackerNews

/// What ``API/liveFeed(_:limit:scheduler:)`` relies on to lose no event: the streams start
/// only after the subscriber has its subscription and has asked for values.
final class StartingAfterSubscriptionTests: XCTestCase {
  func test_aValueSentFromStart_reachesTheSink() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var finished = false
    let cancellable = StartingAfterSubscription(upstream: subject) {
      subject.send(1)
      subject.send(completion: .finished)
    }
    .sink(receiveCompletion: { _ in finished = true }, receiveValue: { received.append($0) })
    XCTAssertEqual(received, [1])
    XCTAssertTrue(finished)
    cancellable.cancel()
  }

  /// The way it was started before: from `receiveSubscription`, before the sink had asked
  /// for anything, a value sent at once is lost and only the completion arrives.
  func test_startingFromReceiveSubscription_losesAValueSentAtOnce() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var finished = false
    let cancellable = subject.handleEvents(receiveSubscription: { _ in
      subject.send(1)
      subject.send(completion: .finished)
    })
    .sink(receiveCompletion: { _ in finished = true }, receiveValue: { received.append($0) })
    XCTAssertEqual(received, [])
    XCTAssertTrue(finished)
    cancellable.cancel()
  }
}
