import Confluence
import Foundation

/// The subscriber ``PublisherVerification`` subscribes: it records what arrives and notes,
/// as it happens, every breach of the contract it can see from the subscriber's side.
internal final class VerificationProbe<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: every field is read and written only under `lock`; the
  // subscription is called, and the hook run, after the lock is released.
  private let lock = Lock()
  private var subscriptions = 0
  private var valueCount = 0
  private var completions = 0
  private var heldSubscription: Subscription?
  private var outstanding = Subscribers.Demand.none
  private var hasCancelled = false
  private var deliveriesInProgress = 0
  private var problems: [Breach] = []

  private let initialDemand: Subscribers.Demand
  /// Whether an event after `cancel()` is a breach; off where another thread may be
  /// mid-delivery when the probe cancels.
  private let strictCancellation: Bool
  /// How long each delivery stays inside `receive`, so that unserialised deliveries from
  /// two threads overlap visibly.
  private let holdMicroseconds: UInt32
  /// Called with the number of the value (from 1); returns the demand to add.
  private let onValue: ((Int, VerificationProbe) -> Subscribers.Demand)?

  init(
    initialDemand: Subscribers.Demand, strictCancellation: Bool = true, holdMicroseconds: UInt32 = 0,
    onValue: ((Int, VerificationProbe) -> Subscribers.Demand)? = nil
  ) {
    self.initialDemand = initialDemand
    self.strictCancellation = strictCancellation
    self.holdMicroseconds = holdMicroseconds
    self.onValue = onValue
  }

  // MARK: What was seen

  var values: Int { lock.withLock { valueCount } }
  var completionCount: Int { lock.withLock { completions } }
  var subscriptionCount: Int { lock.withLock { subscriptions } }
  /// Every breach seen, in order.
  var allBreaches: [Breach] { lock.withLock { problems } }

  /// The breaches of the given kinds, as text.
  func breaches(_ kinds: Set<Breach.Kind>) -> [String] {
    allBreaches.filter { kinds.contains($0.kind) }.map(\.message)
  }
  /// The subscription, kept even after cancel, to ask it for more afterwards.
  var lastSubscription: Subscription? { lock.withLock { keptSubscription } }
  private var keptSubscription: Subscription?

  // MARK: Acting

  func request(_ demand: Subscribers.Demand) {
    let subscription = lock.withLock { () -> Subscription? in
      guard let heldSubscription else { return nil }
      outstanding += demand
      return heldSubscription
    }
    subscription?.request(demand)
  }

  func cancel() {
    let subscription = lock.withLock { () -> Subscription? in
      hasCancelled = true
      defer { heldSubscription = nil }
      return heldSubscription
    }
    subscription?.cancel()
  }

  /// Drops the subscriptions it holds, so that only the publisher can keep the probe alive.
  func letGo() {
    let dropped = lock.withLock { () -> (Subscription?, Subscription?) in
      defer {
        heldSubscription = nil
        keptSubscription = nil
      }
      return (heldSubscription, keptSubscription)
    }
    withExtendedLifetime(dropped) {}
  }

  // MARK: Subscriber

  func receive(subscription: Subscription) {
    let accepted = lock.withLock { () -> Bool in
      subscriptions += 1
      if subscriptions > 1 {
        problems.append(Breach(.subscription, "a second receive(subscription:) arrived"))
        return false
      }
      if hasCancelled {
        // Cancelled before the subscription arrived: cancel it at once.
        keptSubscription = subscription
        return false
      }
      if valueCount > 0 || completions > 0 {
        problems.append(Breach(.subscription, "receive(subscription:) arrived after a value or completion"))
      }
      heldSubscription = subscription
      keptSubscription = subscription
      outstanding += initialDemand
      return true
    }
    if !accepted {
      subscription.cancel()
      return
    }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let number = lock.withLock { () -> Int in
      deliveriesInProgress += 1
      if deliveriesInProgress > 1 {
        problems.append(
          Breach(.overlap, "value \(valueCount + 1) arrived while another event was still being delivered"))
      }
      valueCount += 1
      if subscriptions == 0 {
        problems.append(Breach(.subscription, "value \(valueCount) arrived before receive(subscription:)"))
      }
      if completions > 0 {
        problems.append(Breach(.afterCompletion, "value \(valueCount) arrived after the completion"))
      }
      if hasCancelled && strictCancellation {
        problems.append(Breach(.afterCancel, "value \(valueCount) arrived after cancel()"))
      }
      if outstanding == .none {
        problems.append(Breach(.beyondDemand, "value \(valueCount) arrived beyond the demand requested"))
      } else {
        outstanding -= 1
      }
      return valueCount
    }
    if holdMicroseconds > 0 { usleep(holdMicroseconds) }
    let more = onValue?(number, self) ?? .none
    lock.withLock {
      outstanding += more
      deliveriesInProgress -= 1
    }
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      deliveriesInProgress += 1
      if deliveriesInProgress > 1 {
        problems.append(Breach(.overlap, "the completion arrived while a value was still being delivered"))
      }
      completions += 1
      if subscriptions == 0 {
        problems.append(Breach(.subscription, "the completion arrived before receive(subscription:)"))
      }
      if completions > 1 { problems.append(Breach(.secondCompletion, "completion number \(completions) arrived")) }
      if hasCancelled && strictCancellation {
        problems.append(Breach(.afterCancel, "the completion arrived after cancel()"))
      }
      heldSubscription = nil
      deliveriesInProgress -= 1
    }
  }
}

/// A breach of the contract the probe saw, by kind, so that each rule's check reports only
/// its own.
internal struct Breach: Sendable {
  enum Kind: Sendable, Hashable {
    case subscription, beyondDemand, afterCompletion, secondCompletion, afterCancel, overlap
  }

  let kind: Kind
  let message: String

  init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }
}
