import Confluence
import ConfluenceTesting
import Foundation
import Testing

/// The await helpers and the virtual-time scheduler, as a Swift Testing user writes them.
@Suite struct AwaitingTests {
  @Test func firstValues_returnsThemAndCancels() async throws {
    var cancelled = false
    let values = try await (1...10).publisher.handleEvents(receiveCancel: { cancelled = true }).firstValues(3)
    #expect(values == [1, 2, 3])
    #expect(cancelled)
  }

  @Test func firstValues_fromAnotherThread_arriveInTime() async throws {
    let subject = PassthroughSubject<Int, Never>()
    let sender = Task.detached {
      // Sends until the awaiting subscriber has taken what it asked for.
      for value in 0..<1_000 {
        subject.send(value)
        try await Task.sleep(for: .milliseconds(1))
      }
    }
    let values = try await subject.firstValues(2, timeout: .seconds(10))
    sender.cancel()
    #expect(values.count == 2)
    #expect(values[1] == values[0] + 1)
  }

  @Test func firstValues_publisherFinishesEarly_throws() async {
    await #expect(throws: PublisherWaitError.self) {
      _ = try await [1].publisher.firstValues(2)
    }
  }

  @Test func firstValues_nothingArrives_timesOut() async {
    let subject = PassthroughSubject<Int, Never>()
    do {
      _ = try await subject.firstValues(1, timeout: .milliseconds(20))
      Issue.record("expected a time-out")
    } catch let error as PublisherWaitError {
      #expect(error.reason == .timedOut(.milliseconds(20)))
      #expect(error.description == "timed out after 0.02 seconds waiting for 1 values; received []")
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test func allValues_returnsEveryValue_andThrowsTheFailure() async throws {
    #expect(try await [1, 2].publisher.map { $0 * 10 }.allValues() == [10, 20])
    await #expect(throws: TestError("boom")) {
      _ = try await Fail<Int, TestError>(error: TestError("boom")).allValues()
    }
  }

  @Test func awaitCompletion_recordsValuesAndFailure() async throws {
    let recording = try await [1, 2].publisher.setFailureType(to: TestError.self)
      .append(Fail(error: TestError("end"))).awaitCompletion()
    #expect(recording == PublisherRecording(values: [1, 2], completion: .failure(TestError("end"))))
  }

  @Test func awaitCompletion_contractBreach_isAnIssue() async throws {
    try await withKnownIssue {
      _ = try await SecondCompletion().awaitCompletion()
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["Contract violation: received a second completion (finished)"]
    }
  }

  @Test func testScheduler_drivesTimeInsideATest() {
    let scheduler = VirtualTimeScheduler()
    let subject = PassthroughSubject<String, Never>()
    let subscriber = TestSubscriber<String, Never>()
    subject.debounce(for: 10, scheduler: scheduler).subscribe(subscriber)
    subject.send("a")
    scheduler.advance(by: 5)
    subject.send("b")
    scheduler.advance(by: 9)
    #expect(subscriber.values == [])
    scheduler.advance(by: 1)
    #expect(subscriber.values == ["b"])
    #expect(scheduler.now == 15)
  }

  @Test func testScheduler_isSendable_acrossTasks() async {
    let scheduler = VirtualTimeScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    Just(7).delay(for: 3, scheduler: scheduler).subscribe(subscriber)
    await Task.detached { scheduler.advance(by: 3) }.value
    #expect(subscriber.values == [7])
    #expect(subscriber.completion == .finished)
  }
}

/// Finishes twice: the breach the awaiting subscriber must report.
private struct SecondCompletion: Publisher {
  typealias Output = Int
  typealias Failure = Never

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: .finished)
    subscriber.receive(completion: .finished)
  }
}
