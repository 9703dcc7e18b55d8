import Confluence
import ConfluenceTesting
import XCTest

/// Apple's edge rules for the two operators that hand every event to a scheduler,
/// `receive(on:)` and `delay(for:…)`, each checked against both.
final class SchedulerHopRulesTests: XCTestCase {
  private typealias Make = (DetachedUpstream<Int, TestError>, VirtualTimeScheduler) -> AnyPublisher<Int, TestError>

  private let members: [(String, Make)] = [
    ("receive(on:)", { $0.receive(on: $1).eraseToAnyPublisher() }),
    ("delay", { $0.delay(for: 3, scheduler: $1).eraseToAnyPublisher() }),
  ]

  func test_cancelBeforeTheSubscription_isIgnored() {
    for (member, make) in members {
      let scheduler = VirtualTimeScheduler()
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
      make(upstream, scheduler).subscribe(subscriber)
      upstream.operatorSubscription?.cancel()
      let subscription = upstream.attach()
      XCTAssertEqual(subscription.events, [.requested(.max(2))], "\(member): the late subscription is taken as usual")
    }
  }

  func test_afterTheCompletion_nothingMoreIsScheduled() {
    for (member, make) in members {
      let scheduler = VirtualTimeScheduler()
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>()
      make(upstream, scheduler).subscribe(subscriber)
      _ = upstream.attach()
      _ = upstream.send(1)
      upstream.send(completion: .failure(TestError()))
      upstream.send(completion: .finished)
      _ = upstream.send(2)
      XCTAssertEqual(scheduler.pendingActionCount, 2, member)
      _ = scheduler.run()
      XCTAssertEqual(subscriber.values, [1], member)
      XCTAssertEqual(subscriber.completion, .failure(TestError()), member)
    }
  }

  func test_afterCancel_nothingIsScheduled_queuedValuesAreDropped_aScheduledCompletionArrives() {
    for (member, make) in members {
      let scheduler = VirtualTimeScheduler()
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(strictCancellation: false)
      make(upstream, scheduler).subscribe(subscriber)
      let subscription = upstream.attach()
      _ = upstream.send(1)
      upstream.send(completion: .finished)
      subscriber.cancel()
      XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled], member)
      _ = upstream.send(2)
      XCTAssertEqual(scheduler.pendingActionCount, 2, "\(member): nothing scheduled after cancel")
      _ = scheduler.run()
      XCTAssertEqual(subscriber.values, [], member)
      XCTAssertEqual(subscriber.completion, .finished, "\(member): the completion was already scheduled")
    }
  }

  func test_aScheduledAction_holdsTheSubscriberUntilItRuns() {
    for (member, make) in members {
      let scheduler = VirtualTimeScheduler()
      let upstream = DetachedUpstream<Int, TestError>()
      var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
      make(upstream, scheduler).subscribe(subscriber!)
      _ = upstream.attach()
      _ = upstream.send(1)
      subscriber?.cancel()
      weak let released = subscriber
      subscriber = nil
      withExtendedLifetime(upstream) {
        XCTAssertNotNil(released, "\(member): the queued action holds it")
        _ = scheduler.run()
        XCTAssertEqual(released?.values ?? [], [], member)
      }
    }
  }

  func test_cancel_doesNotLetGoOfTheSubscriber() {
    for (member, make) in members {
      let scheduler = VirtualTimeScheduler()
      let upstream = DetachedUpstream<Int, TestError>()
      var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
      make(upstream, scheduler).subscribe(subscriber!)
      _ = upstream.attach()
      let operatorSubscription = upstream.operatorSubscription
      operatorSubscription?.cancel()
      weak let released = subscriber
      subscriber = nil
      XCTAssertNotNil(released, "\(member): the subscription still holds its downstream")
      withExtendedLifetime(operatorSubscription) {}
    }
  }

  func test_demandAfterTheCompletionArrived_stillGoesUpstream_untilTheCompletionIsDelivered() {
    for (member, make) in members {
      let scheduler = VirtualTimeScheduler()
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(4))
      make(upstream, scheduler).subscribe(subscriber)
      let subscription = upstream.attach()
      let downstreamSubscription = subscriber.subscription
      _ = upstream.send(1)
      upstream.send(completion: .finished)
      _ = scheduler.run()
      downstreamSubscription?.request(.max(9))
      XCTAssertEqual(subscription.events, [.requested(.max(1)), .requested(.max(4))], member)
      XCTAssertEqual(subscriber.completion, .finished, member)
    }
  }

  // Both operators queue each event until its scheduled action runs. These drive that queue
  // through many bursts (events queued faster than they are delivered, then the other way
  // round), far past the size of its first block of storage.
  func test_manyEvents_queuedAndDeliveredInBursts_arriveInOrder() {
    for (member, make) in members {
      let scheduler = VirtualTimeScheduler()
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>()
      make(upstream, scheduler).subscribe(subscriber)
      _ = upstream.attach()
      var sent = 0
      for burst in 0..<60 {
        for _ in 0..<(burst * 37 % 101) {
          sent += 1
          _ = upstream.send(sent)
        }
        _ = scheduler.run(maxActions: burst * 53 % 89)
      }
      upstream.send(completion: .finished)
      _ = scheduler.run()
      XCTAssertEqual(subscriber.values, Array(1...sent), member)
      XCTAssertEqual(subscriber.completion, .finished, member)
    }
  }

  func test_eventsWhoseActionsNeverRun_areReleasedWithTheSubscription() {
    typealias Tracked = LifetimeTracker.Tracked
    let members: [(String, (PassthroughSubject<Tracked, Never>, ActionStore) -> AnyPublisher<Tracked, Never>)] = [
      ("receive(on:)", { $0.receive(on: ForgetfulScheduler(store: $1)).eraseToAnyPublisher() }),
      ("delay", { $0.delay(for: 3, scheduler: ForgetfulScheduler(store: $1)).eraseToAnyPublisher() }),
    ]
    for (member, make) in members {
      let tracker = LifetimeTracker()
      var store: ActionStore? = ActionStore()
      let upstream = PassthroughSubject<Tracked, Never>()
      var received = 0
      var cancellable: AnyCancellable? = make(upstream, store!).sink { _ in received += 1 }
      for _ in 0..<40 { upstream.send(tracker.make()) }
      store?.run(5)
      XCTAssertEqual(received, 5, member)
      XCTAssertEqual(tracker.liveCount, 35, "\(member): the queued values wait for their actions")
      cancellable = nil
      store = nil
      XCTAssertEqual(tracker.liveCount, 0, "\(member): dropped with the actions that would have delivered them")
      withExtendedLifetime(cancellable) {}
    }
  }

  func test_reflection_receiveOnDescribesItselfWithNoChildren_delayDoesNot() {
    let upstream = DetachedUpstream<Int, TestError>()
    upstream.receive(on: VirtualTimeScheduler()).subscribe(TestSubscriber<Int, TestError>())
    XCTAssertEqual((upstream.operatorSubscriber as? CustomStringConvertible)?.description, "ReceiveOn")
    XCTAssertEqual((upstream.operatorSubscriber as? CustomReflectable)?.customMirror.children.count, 0)
    XCTAssertEqual(
      (upstream.operatorSubscriber as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
      "ReceiveOn")

    let delayed = DetachedUpstream<Int, TestError>()
    delayed.delay(for: 1, scheduler: VirtualTimeScheduler()).subscribe(TestSubscriber<Int, TestError>())
    XCTAssertFalse(delayed.operatorSubscriber is CustomStringConvertible)
    XCTAssertFalse(delayed.operatorSubscriber is CustomReflectable)
    XCTAssertFalse(delayed.operatorSubscriber is CustomPlaygroundDisplayConvertible)
  }
}

/// The actions a ``ForgetfulScheduler`` was given, run on request or dropped unrun with it.
private final class ActionStore {
  var actions: [() -> Void] = []

  func run(_ count: Int) {
    let due = actions.prefix(count)
    actions.removeFirst(due.count)
    for action in due { action() }
  }
}

/// A scheduler that does not keep its actions alive: they live in an ``ActionStore`` that the
/// test owns (a `TestScheduler` held by the operator's subscription would, through the
/// actions, hold that subscription in turn).
private struct ForgetfulScheduler: Scheduler {
  unowned let store: ActionStore

  var now: VirtualTime { 0 }
  var minimumTolerance: VirtualTime.Stride { 0 }

  func schedule(options: Never?, _ action: @escaping () -> Void) {
    store.actions.append(action)
  }

  func schedule(
    after date: VirtualTime, tolerance: VirtualTime.Stride, options: Never?, _ action: @escaping () -> Void
  ) {
    store.actions.append(action)
  }

  func schedule(
    after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) -> Cancellable {
    store.actions.append(action)
    return AnyCancellable {}
  }
}
