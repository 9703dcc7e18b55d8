import Confluence
import ConfluenceTesting
import Foundation
import XCTest

final class HandleEventsTests: XCTestCase {
  /// A pipeline whose closures and downstream subscriber all append to one log, so that
  /// the order of side effects and forwarded events shows.
  private final class Recorder {
    var log: [String] = []
  }

  private func recordingHandleEvents<P: Publisher>(
    _ upstream: P, into recorder: Recorder
  ) -> Publishers.HandleEvents<P> {
    upstream.handleEvents(
      receiveSubscription: { recorder.log.append("subscription \($0)") },
      receiveOutput: { recorder.log.append("output \($0)") },
      receiveCompletion: { recorder.log.append("completion \($0)") },
      receiveCancel: { recorder.log.append("cancel") },
      receiveRequest: { recorder.log.append("request \($0)") })
  }

  private func recordingSubscriber<Input, Failure>(
    _ type: (Input, Failure).Type = (Input, Failure).self,
    into recorder: Recorder,
    initialDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none
  ) -> TestSubscriber<Input, Failure> {
    let subscriber = TestSubscriber<Input, Failure>(initialDemand: initialDemand)
    subscriber.onSubscription = { recorder.log.append("downstream subscription \($0)") }
    subscriber.onValue = {
      recorder.log.append("downstream value \($0)")
      return demandPerValue
    }
    subscriber.onCompletion = { recorder.log.append("downstream completion \($0)") }
    return subscriber
  }

  // MARK: Order and history

  func test_closuresRunBeforeForwarding_unlimitedDemand() {
    let recorder = Recorder()
    let subscriber = recordingSubscriber((Int, Never).self, into: recorder)
    recordingHandleEvents([1, 2].publisher, into: recorder).subscribe(subscriber)
    XCTAssertEqual(
      recorder.log,
      [
        "subscription [1, 2]",
        "request unlimited",
        "output 1",
        "downstream value 1",
        "output 2",
        "downstream value 2",
        "completion finished",
        "downstream completion finished",
        // TestSubscriber runs its onSubscription hook after its initial request returns.
        "downstream subscription HandleEvents",
      ])
    XCTAssertEqual(subscriber.events, [.subscription("HandleEvents"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_subscriptionClosure_runsBeforeDownstreamSeesTheSubscription() {
    let recorder = Recorder()
    let subscriber = recordingSubscriber((Int, Never).self, into: recorder, initialDemand: .none)
    recordingHandleEvents(Just(1), into: recorder).subscribe(subscriber)
    XCTAssertEqual(recorder.log, ["subscription Just", "downstream subscription HandleEvents"])
  }

  func test_demand_noneThenMaxOneThenUnlimited() {
    let recorder = Recorder()
    let subscriber = recordingSubscriber((Int, Never).self, into: recorder, initialDemand: .none)
    recordingHandleEvents([1, 2, 3].publisher, into: recorder).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("HandleEvents")])
    XCTAssertEqual(recorder.log, ["subscription [1, 2, 3]", "downstream subscription HandleEvents"])
    recorder.log = []

    subscriber.request(.max(1))
    XCTAssertEqual(recorder.log, ["request max(1)", "output 1", "downstream value 1"])
    recorder.log = []

    subscriber.request(.unlimited)
    XCTAssertEqual(
      recorder.log,
      [
        "request unlimited",
        "output 2", "downstream value 2",
        "output 3", "downstream value 3",
        "completion finished", "downstream completion finished",
      ])
    XCTAssertEqual(
      subscriber.events, [.subscription("HandleEvents"), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1), .unlimited])
  }

  // As Apple's: a demand the downstream returns from receive(_:) is reported as a request.
  func test_demandReturnedFromReceive_isReportedAsARequest() {
    let recorder = Recorder()
    let subscriber = recordingSubscriber(
      (Int, Never).self, into: recorder, initialDemand: .max(1), demandPerValue: .max(1))
    recordingHandleEvents([1, 2].publisher, into: recorder).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(
      recorder.log.filter { $0.hasPrefix("request") }, ["request max(1)", "request max(1)", "request max(1)"])
    XCTAssertEqual(subscriber.demands, [.max(1), .max(1), .max(1)])
  }

  func test_requests_arePassedUpstreamAfterTheClosure() {
    let publisher = ManualDebugPublisher<Int, Never>()
    var upstreamRequestsSeenByClosure: [[Subscribers.Demand]] = []
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    publisher
      .handleEvents(receiveRequest: { _ in upstreamRequestsSeenByClosure.append(publisher.requests) })
      .subscribe(subscriber)
    subscriber.request(.max(3))
    XCTAssertEqual(publisher.requests, [.max(2), .max(3)])
    XCTAssertEqual(upstreamRequestsSeenByClosure, [[], [.max(2)]])
  }

  func test_noClosures_passesEverythingThrough() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    [1, 2, 3].publisher.handleEvents().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("HandleEvents"), .value(1), .value(2)])
    subscriber.request(.max(1))
    XCTAssertEqual(
      subscriber.events, [.subscription("HandleEvents"), .value(1), .value(2), .value(3), .completion(.finished)])
  }

  // MARK: Failure and cancel

  func test_failure_runsCompletionClosureThenForwards() {
    let recorder = Recorder()
    let publisher = ManualDebugPublisher<Int, TestError>()
    let subscriber = recordingSubscriber((Int, TestError).self, into: recorder)
    recordingHandleEvents(publisher, into: recorder).subscribe(subscriber)
    publisher.send(1)
    publisher.fail(TestError("boom"))
    XCTAssertEqual(
      recorder.log,
      [
        "subscription Manual", "request unlimited", "downstream subscription HandleEvents",
        "output 1", "downstream value 1",
        "completion failure(boom)", "downstream completion failure(boom)",
      ])
    XCTAssertEqual(
      subscriber.events, [.subscription("HandleEvents"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_cancel_runsCancelClosureOnceBeforeCancellingUpstream() {
    let recorder = Recorder()
    let publisher = ManualDebugPublisher<Int, Never>()
    var upstreamCancelsSeenByClosure: [Int] = []
    let subscriber = TestSubscriber<Int, Never>()
    publisher
      .handleEvents(receiveCancel: {
        upstreamCancelsSeenByClosure.append(publisher.cancelCount)
        recorder.log.append("cancel")
      })
      .subscribe(subscriber)
    publisher.send(1)
    subscriber.cancel()
    subscriber.cancel()
    XCTAssertEqual(upstreamCancelsSeenByClosure, [0])
    XCTAssertEqual(publisher.cancelCount, 1)
    XCTAssertFalse(publisher.send(2))
    XCTAssertEqual(subscriber.events, [.subscription("HandleEvents"), .value(1)])
  }

  // Just sends its completion even to a subscriber that cancelled inside receive; Apple's
  // handleEvents passes it on without calling its closure (the subscription has ended).
  func test_cancelInsideReceive_runsCancelClosure_andJustsLateCompletionPassesUnseen() {
    let recorder = Recorder()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onViolation = { _ in }
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    recordingHandleEvents(Just(1), into: recorder).subscribe(subscriber)
    XCTAssertEqual(recorder.log, ["subscription Just", "request unlimited", "output 1", "cancel"])
    XCTAssertEqual(subscriber.events, [.subscription("HandleEvents"), .value(1), .completion(.finished)])
  }

  func test_cancelAfterCompletion_doesNotRunCancelClosure() {
    let recorder = Recorder()
    let publisher = ManualDebugPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    recordingHandleEvents(publisher, into: recorder).subscribe(subscriber)
    let subscription = subscriber.subscription
    publisher.finish()
    subscription?.cancel()
    XCTAssertEqual(recorder.log, ["subscription Manual", "request unlimited", "completion finished"])
    XCTAssertEqual(publisher.cancelCount, 0)
  }

  // MARK: Lifetime

  func test_cancel_freesTheClosures() {
    let tracker = LifetimeTracker()
    let publisher = ManualDebugPublisher<Int, Never>()
    do {
      let probes = (tracker.make(), tracker.make(), tracker.make(), tracker.make(), tracker.make())
      let token =
        publisher
        .handleEvents(
          receiveSubscription: { _ in _ = probes.0 },
          receiveOutput: { _ in _ = probes.1 },
          receiveCompletion: { _ in _ = probes.2 },
          receiveCancel: { _ = probes.3 },
          receiveRequest: { _ in _ = probes.4 }
        )
        .sink { _ in }
      publisher.send(1)
      publisher.dropSubscription()
      token.cancel()
    }
    XCTAssertEqual(tracker.madeCount, 5)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_completion_freesTheClosures() {
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      [1, 2].publisher.handleEvents(receiveOutput: { _ in _ = probe }).subscribe(subscriber)
    }
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(tracker.liveCount, 0)
  }

  // MARK: The book's example (chapter 10, "Acting on events")

  /// Stands in for `URLSession.shared.dataTaskPublisher(for:)`: the response arrives later.
  private typealias Request = ManualDebugPublisher<(data: Data, response: String), TestError>

  func test_bookExample_droppedToken_startsThenCancels() {
    var printed: [String] = []
    let request = Request()
    _ =
      request
      .handleEvents(
        receiveSubscription: { _ in
          printed.append("Network request will start")
        },
        receiveOutput: { _ in
          printed.append("Network request data received")
        },
        receiveCancel: {
          printed.append("Network request cancelled")
        }
      )
      .sink(receiveCompletion: { completion in
        printed.append("Sink received completion: \(completion)")
      }) { (data, _) in
        printed.append("Sink received data: \(data)")
      }
    request.send((Data(count: 303094), "response"))
    request.finish()
    XCTAssertEqual(printed, ["Network request will start", "Network request cancelled"])
  }

  func test_bookExample_keptToken_receivesData() {
    var printed: [String] = []
    let request = Request()
    let subscription =
      request
      .handleEvents(
        receiveSubscription: { _ in
          printed.append("Network request will start")
        },
        receiveOutput: { _ in
          printed.append("Network request data received")
        },
        receiveCancel: {
          printed.append("Network request cancelled")
        }
      )
      .sink(receiveCompletion: { completion in
        printed.append("Sink received completion: \(completion)")
      }) { (data, _) in
        printed.append("Sink received data: \(data)")
      }
    request.send((Data(count: 303094), "response"))
    request.finish()
    XCTAssertEqual(
      printed,
      [
        "Network request will start",
        "Network request data received",
        "Sink received data: 303094 bytes",
        "Sink received completion: finished",
      ])
    subscription.cancel()
    XCTAssertEqual(printed.count, 4, "cancel after completion runs no closure")
  }

  // MARK: The publisher value

  func test_closuresAreVariables() {
    var calls: [String] = []
    var publisher = Just(1).handleEvents(receiveRequest: nil)
    XCTAssertNil(publisher.receiveOutput)
    publisher.receiveOutput = { calls.append("output \($0)") }
    publisher.receiveRequest = { calls.append("request \($0)") }
    _ = publisher.sink { _ in }
    XCTAssertEqual(calls, ["request unlimited", "output 1"])
    XCTAssertEqual(publisher.upstream, Just(1))

    // Apple's initializer gives `receiveRequest` no default.
    let direct = Publishers.HandleEvents(upstream: Just(2), receiveRequest: nil)
    XCTAssertNil(direct.receiveSubscription)
    XCTAssertNil(direct.receiveCancel)
  }
}
