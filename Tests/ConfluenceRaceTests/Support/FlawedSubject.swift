import Confluence
import Dispatch
import Foundation

/// A subject with one deliberate flaw, for the harness's own tests: each flaw breaks one
/// promise the race checks look for, so those tests can show that every check fails when
/// its promise is broken (a check that cannot fail proves nothing).
///
/// `@unchecked Sendable`: `subscriptions` is guarded by `lock`; each subscription's state by
/// its own lock (which the `.unserialised` flaw deliberately skips for the delivery).
final class FlawedSubject: Publisher, @unchecked Sendable {
  typealias Output = RaceTag
  typealias Failure = Never

  enum Flaw: Sendable {
    /// Delivers from every sending thread at once (no serialisation).
    case unserialised
    /// Drops each thread's value 3.
    case dropsValueThree
    /// Delivers each thread's value 2 twice.
    case duplicatesValueTwo
    /// Holds each thread's value 1 back and delivers it after value 2.
    case swapsValuesOneAndTwo
    /// Delivers whatever the demand.
    case ignoresDemand
    /// `cancel()` does nothing: values keep coming, the subscriber is kept.
    case ignoresCancel
    /// Delivers the completion twice, then a value.
    case completesTwiceThenSends
    /// Delivers on a queue of its own, not on the sending thread.
    case deliversElsewhere
    /// A send blocks until `release()` is called.
    case blocksUntilReleased
  }

  let flaw: Flaw
  private let lock = NSLock()
  private var subscriptions: [FlawedSubscription] = []
  private let blocked = DispatchSemaphore(value: 0)
  private let elsewhere = DispatchQueue(label: "race.flawed")

  init(_ flaw: Flaw) {
    self.flaw = flaw
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == RaceTag, S.Failure == Never {
    let subscription = FlawedSubscription(AnySubscriber(subscriber), flaw: flaw)
    lock.withLock { subscriptions.append(subscription) }
    subscriber.receive(subscription: subscription)
  }

  func send(_ value: RaceTag) {
    if flaw == .blocksUntilReleased {
      blocked.wait()
    }
    let all = lock.withLock { subscriptions }
    for subscription in all {
      if flaw == .deliversElsewhere {
        // Not `sync`, which runs the block on the calling thread.
        let done = DispatchGroup()
        elsewhere.async(group: done) { subscription.offer(value) }
        done.wait()
      } else {
        subscription.offer(value)
      }
    }
  }

  func send(completion: Subscribers.Completion<Never>) {
    for subscription in lock.withLock({ subscriptions }) {
      subscription.complete()
    }
  }

  /// Lets every blocked send go (`.blocksUntilReleased`).
  func release() {
    for _ in 0..<64 {
      blocked.signal()
    }
  }

  /// One subscriber's subscription, flawed as its subject.
  final class FlawedSubscription: Subscription, @unchecked Sendable {
    private let flaw: Flaw
    private let lock = NSLock()
    // Guarded by `lock`.
    private var downstream: AnySubscriber<RaceTag, Never>?
    private var demand = Subscribers.Demand.none
    private var heldBack: RaceTag?

    init(_ downstream: AnySubscriber<RaceTag, Never>, flaw: Flaw) {
      self.downstream = downstream
      self.flaw = flaw
    }

    func request(_ demand: Subscribers.Demand) {
      lock.withLock { self.demand += demand }
    }

    func cancel() {
      guard flaw != .ignoresCancel else { return }
      lock.withLock { downstream = nil }
    }

    func offer(_ value: RaceTag) {
      if flaw == .unserialised {
        guard let downstream = lock.withLock({ self.downstream }) else { return }
        _ = downstream.receive(value)
        return
      }
      lock.lock()
      defer { lock.unlock() }
      guard let downstream, demand > 0 || flaw == .ignoresDemand else { return }
      if demand > 0 { demand -= 1 }
      switch (flaw, value.seq) {
      case (.dropsValueThree, 3):
        return
      case (.duplicatesValueTwo, 2):
        _ = downstream.receive(value)
        _ = downstream.receive(value)
      case (.swapsValuesOneAndTwo, 1):
        heldBack = value
      case (.swapsValuesOneAndTwo, 2):
        _ = downstream.receive(value)
        if let held = heldBack { _ = downstream.receive(held) }
      default:
        demand += downstream.receive(value)
      }
    }

    func complete() {
      lock.lock()
      defer { lock.unlock() }
      guard let downstream else { return }
      downstream.receive(completion: .finished)
      if flaw == .completesTwiceThenSends {
        downstream.receive(completion: .finished)
        _ = downstream.receive(RaceTag.main(0))
      } else {
        self.downstream = nil
      }
    }
  }
}
