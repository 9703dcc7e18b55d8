import Confluence
import ConfluenceTesting

/// A hand-written hot publisher, like a subject: `send(_:)` delivers to every subscriber
/// that has demand (the others miss the value). It keeps the contract when `flaw` is nil,
/// and otherwise breaks it in one deliberate way.
final class FlawedRelay: Publisher, @unchecked Sendable {
  // @unchecked Sendable: `conduits` and `isFinished` are only touched under `lock`; the
  // subscribers are called with the lock released.
  typealias Output = Int
  typealias Failure = Never

  enum Flaw: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Sends every value to every subscriber, demand or not.
    case ignoresDemand
    /// Forgets a subscriber's cancel: it still gets values.
    case deliversAfterCancel
    /// Sends values sent after the completion to the subscribers it had.
    case deliversAfterCompletion
    /// Keeps every subscriber for the relay's whole life.
    case keepsSubscribers

    var description: String { rawValue }

    /// The rules this flaw breaks (among others).
    var breaks: [ContractRule] {
      switch self {
      case .ignoresDemand: return [.neverMoreThanDemanded]
      case .deliversAfterCancel: return [.nothingAfterCancel]
      case .deliversAfterCompletion: return [.nothingAfterCompletion]
      case .keepsSubscribers: return [.releasesSubscriberAfterCompletion, .releasesSubscriberAfterCancel]
      }
    }
  }

  private let flaw: Flaw?
  private let lock = Lock()
  private var conduits: [Conduit] = []
  private var isFinished = false

  init(flaw: Flaw? = nil) {
    self.flaw = flaw
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    let conduit = Conduit(AnySubscriber(subscriber), flaw: flaw)
    let finished = lock.withLock { () -> Bool in
      if !isFinished { conduits.append(conduit) }
      return isFinished
    }
    subscriber.receive(subscription: conduit)
    if finished && flaw != .keepsSubscribers { conduit.complete() }
  }

  /// Sends `value` to each subscriber with demand.
  func send(_ value: Int) {
    let targets = lock.withLock { () -> [Conduit] in
      isFinished && flaw != .deliversAfterCompletion ? [] : conduits
    }
    for conduit in targets { conduit.offer(value) }
  }

  /// Finishes every subscriber.
  func finish() {
    let targets = lock.withLock { () -> [Conduit] in
      if isFinished { return [] }
      isFinished = true
      let all = conduits
      if flaw != .keepsSubscribers && flaw != .deliversAfterCompletion { conduits = [] }
      return all
    }
    for conduit in targets { conduit.complete() }
  }

  private final class Conduit: Subscription, @unchecked Sendable {
    // @unchecked Sendable: the fields are only touched under `lock`.
    private let lock = Lock()
    private var downstream: AnySubscriber<Int, Never>?
    private var demand = Subscribers.Demand.none
    private var isDone = false
    private let flaw: Flaw?

    init(_ downstream: AnySubscriber<Int, Never>, flaw: Flaw?) {
      self.downstream = downstream
      self.flaw = flaw
    }

    func request(_ more: Subscribers.Demand) {
      lock.withLock { demand += more }
    }

    func cancel() {
      let dropped = lock.withLock { () -> AnySubscriber<Int, Never>? in
        if flaw == .deliversAfterCancel || flaw == .keepsSubscribers { return nil }
        isDone = true
        defer { downstream = nil }
        return downstream
      }
      withExtendedLifetime(dropped) {}
    }

    func offer(_ value: Int) {
      let target = lock.withLock { () -> AnySubscriber<Int, Never>? in
        if isDone && flaw != .deliversAfterCompletion { return nil }
        if demand == .none && flaw != .ignoresDemand { return nil }
        if demand > 0 { demand -= 1 }
        return downstream
      }
      guard let target else { return }
      let more = target.receive(value)
      lock.withLock { demand += more }
    }

    func complete() {
      let target = lock.withLock { () -> AnySubscriber<Int, Never>? in
        if isDone { return nil }
        isDone = true
        defer { if flaw != .keepsSubscribers && flaw != .deliversAfterCompletion { downstream = nil } }
        return downstream
      }
      target?.receive(completion: .finished)
    }
  }
}
