import Confluence
import ConfluenceTesting
import XCTest

final class SinkTests: XCTestCase {
  func test_receivesValuesAndCompletion() {
    var values: [Int] = []
    var completions: [Subscribers.Completion<Never>] = []
    let cancellable = (1...3).publisher.sink(receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
    XCTAssertEqual(values, [1, 2, 3])
    XCTAssertEqual(completions, [.finished])
    cancellable.cancel()
  }

  func test_requestsUnlimited() {
    let probe = DemandProbe()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: probe)
    XCTAssertEqual(probe.requests, [.unlimited])
  }

  func test_secondSubscription_isCancelled() {
    let first = DemandProbe()
    let second = DemandProbe()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: first)
    sink.receive(subscription: second)
    XCTAssertEqual(second.cancels, 1)
    XCTAssertEqual(second.requests, [])
    XCTAssertEqual(first.cancels, 0)
  }

  func test_cancel_cancelsSubscriptionOnce() {
    let probe = DemandProbe()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: probe)
    sink.cancel()
    sink.cancel()
    XCTAssertEqual(probe.cancels, 1)
  }

  func test_afterCompletion_cancelDoesNotReachSubscription() {
    let probe = DemandProbe()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: probe)
    sink.receive(completion: .finished)
    sink.cancel()
    XCTAssertEqual(probe.cancels, 0)
  }

  func test_onlyTheFirstCompletionCounts() {
    var completions: [Subscribers.Completion<TestError>] = []
    let sink = Subscribers.Sink<Int, TestError>(receiveCompletion: { completions.append($0) }, receiveValue: { _ in })
    sink.receive(subscription: DemandProbe())
    sink.receive(completion: .failure(TestError("first")))
    sink.receive(completion: .finished)
    XCTAssertEqual(completions, [.failure(TestError("first"))])
  }

  func test_completionAfterCancel_isIgnored() {
    var completions = 0
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in completions += 1 }, receiveValue: { _ in })
    sink.receive(subscription: DemandProbe())
    sink.cancel()
    sink.receive(completion: .finished)
    XCTAssertEqual(completions, 0)
  }

  func test_subscriptionAfterCompletion_isCancelled() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    sink.receive(subscription: DemandProbe())
    sink.receive(completion: .finished)
    let late = DemandProbe()
    sink.receive(subscription: late)
    XCTAssertEqual(late.cancels, 1)
    XCTAssertEqual(late.requests, [])
  }

  func test_failureReachesCompletionClosure() {
    var completion: Subscribers.Completion<TestError>?
    _ = Publishers.Sequence<[Int], TestError>(sequence: []).sink(
      receiveCompletion: { completion = $0 }, receiveValue: { _ in })
    XCTAssertEqual(completion, .finished)
  }

  func test_droppingToken_cancelsAndFreesUpstream() {
    let probe = DemandProbe()
    weak var weakSink: Subscribers.Sink<Int, Never>?
    do {
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      weakSink = sink
      sink.receive(subscription: probe)
      _ = AnyCancellable(sink)
    }
    XCTAssertEqual(probe.cancels, 1)
    XCTAssertNil(weakSink)
  }

  func test_description() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    XCTAssertEqual(sink.description, "Sink")
    XCTAssertEqual(sink.playgroundDescription as? String, "Sink")
    XCTAssertEqual(sink.customMirror.children.count, 0)
  }
}

/// A subscription that records what it was asked.
final class DemandProbe: Subscription, CustomStringConvertible {
  var description: String { "DemandProbe" }
  var requests: [Subscribers.Demand] = []
  var cancels = 0
  func request(_ demand: Subscribers.Demand) { requests.append(demand) }
  func cancel() { cancels += 1 }
}
