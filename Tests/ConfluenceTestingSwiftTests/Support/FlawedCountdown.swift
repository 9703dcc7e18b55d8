import Confluence
import ConfluenceTesting
import Foundation

/// A hand-written cold publisher of `0..<count` that keeps the contract when `flaw` is nil,
/// and otherwise breaks it in one deliberate way — each flaw breaks one rule of
/// `PublisherVerification`, the way hand-written publishers tend to.
final class FlawedCountdown: Publisher, @unchecked Sendable {
  // @unchecked Sendable: `retained` is only touched under `lock`.
  typealias Output = Int
  typealias Failure = Never

  /// One deliberate breach, named after what the code gets wrong.
  enum Flaw: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Hands the subscriber its subscription twice.
    case subscribesTwice
    /// Delivers every value on the first request, whatever was asked.
    case ignoresDemand
    /// Ignores the demand `receive(_:)` returns.
    case ignoresDemandReturnedFromReceive
    /// Keeps demand in an `Int` and adds with wrap-around, so a large sum turns negative.
    case wrapsDemandAround
    /// Sends `.finished` twice.
    case completesTwice
    /// Forgets it finished: a later request delivers a value again.
    case deliversAfterCompletion
    /// `cancel()` does nothing.
    case ignoresCancel
    /// `cancel()` toggles a flag, so a second cancel undoes the first.
    case secondCancelResumes
    /// Its loop checks for cancellation only between requests, not after each value.
    case ignoresCancelFromInsideReceive
    /// Delivers the values asked for from inside `receive(_:)` recursively.
    case recursesOnReentrantRequest
    /// Guards against re-entrance on the same thread only, so two threads deliver at once.
    case guardsOnlyItsOwnThread
    /// Keeps every subscriber for the publisher's whole life.
    case keepsSubscribers
    /// Lets go of its subscribers at completion but not at cancel.
    case keepsSubscribersAfterCancel
    /// Treats `request(.none)` as `request(.max(1))`.
    case treatsRequestNoneAsOne

    var description: String { rawValue }

    /// The rule this flaw breaks.
    var breaks: ContractRule {
      switch self {
      case .subscribesTwice: return .subscriptionFirst
      case .ignoresDemand: return .neverMoreThanDemanded
      case .ignoresDemandReturnedFromReceive: return .demandAccumulates
      case .wrapsDemandAround: return .demandSaturates
      case .completesTwice: return .atMostOneCompletion
      case .deliversAfterCompletion: return .nothingAfterCompletion
      case .ignoresCancel: return .nothingAfterCancel
      case .secondCancelResumes: return .cancelIsIdempotent
      case .ignoresCancelFromInsideReceive: return .cancelInsideReceive
      case .recursesOnReentrantRequest: return .reentrantRequest
      case .guardsOnlyItsOwnThread: return .requestsFromOtherThreads
      case .keepsSubscribers: return .releasesSubscriberAfterCompletion
      case .keepsSubscribersAfterCancel: return .releasesSubscriberAfterCancel
      case .treatsRequestNoneAsOne: return .requestNoneGrantsNothing
      }
    }
  }

  private let count: Int
  private let flaw: Flaw?
  private let lock = Lock()
  private var retained: [AnyObject] = []

  init(count: Int, flaw: Flaw? = nil) {
    self.count = count
    self.flaw = flaw
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    let subscription = Inner(downstream: subscriber, count: count, flaw: flaw, publisher: self)
    if flaw == .keepsSubscribers || flaw == .keepsSubscribersAfterCancel {
      lock.withLock { retained.append(subscription) }
    }
    subscriber.receive(subscription: subscription)
    if flaw == .subscribesTwice { subscriber.receive(subscription: subscription) }
  }

  fileprivate func release(_ subscription: AnyObject) {
    lock.withLock { retained.removeAll { $0 === subscription } }
  }

  private final class Inner<Downstream: Subscriber>: Subscription, @unchecked Sendable
  where Downstream.Input == Int, Downstream.Failure == Never {
    // @unchecked Sendable: every field is read and written only under `lock`; the
    // downstream is called with the lock released.
    private let lock = NSRecursiveLock()
    private var downstream: Downstream?
    private let count: Int
    private let flaw: Flaw?
    private weak var publisher: FlawedCountdown?
    private var next = 0
    private var demand = Subscribers.Demand.none
    /// The demand as a wrapping integer, for `.wrapsDemandAround`.
    private var wrappingDemand = 0
    private var isDelivering = false
    private var deliveringThreads: Set<ObjectIdentifier> = []
    private var isDone = false
    private var cancelled = false

    init(downstream: Downstream, count: Int, flaw: Flaw?, publisher: FlawedCountdown) {
      self.downstream = downstream
      self.count = count
      self.flaw = flaw
      self.publisher = publisher
    }

    private var hasDemand: Bool {
      flaw == .wrapsDemandAround ? wrappingDemand > 0 : demand > 0
    }

    private func take() {
      if flaw == .wrapsDemandAround { wrappingDemand -= 1 } else { demand -= 1 }
    }

    private func add(_ more: Subscribers.Demand) {
      if flaw == .wrapsDemandAround {
        wrappingDemand = wrappingDemand &+ (more.max ?? Int.max)
      } else {
        demand += more
      }
    }

    func request(_ requested: Subscribers.Demand) {
      lock.lock()
      if flaw == .deliversAfterCompletion && isDone && !cancelled, let downstream {
        lock.unlock()
        _ = downstream.receive(count)
        return
      }
      if isDone || (cancelled && flaw != .ignoresCancel) {
        lock.unlock()
        return
      }
      if flaw == .treatsRequestNoneAsOne && requested == .none {
        add(.max(1))
      } else if flaw == .ignoresDemand {
        add(.unlimited)
      } else {
        add(requested)
      }
      let thread = ObjectIdentifier(Thread.current)
      switch flaw {
      case .recursesOnReentrantRequest:
        break
      case .guardsOnlyItsOwnThread:
        if deliveringThreads.contains(thread) {
          lock.unlock()
          return
        }
        deliveringThreads.insert(thread)
      default:
        if isDelivering {
          lock.unlock()
          return
        }
        isDelivering = true
      }
      deliver()
      deliveringThreads.remove(thread)
      isDelivering = false
      lock.unlock()
    }

    /// Delivers while there is demand; called and returns with the lock held.
    private func deliver() {
      let cancelChecked = flaw != .ignoresCancel && flaw != .ignoresCancelFromInsideReceive
      while hasDemand, next < count, !(cancelled && cancelChecked), let downstream {
        take()
        let value = next
        next += 1
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        if flaw != .ignoresDemandReturnedFromReceive { add(more) }
      }
      guard next == count, !isDone, !(cancelled && cancelChecked), let downstream else { return }
      isDone = true
      if flaw != .deliversAfterCompletion && flaw != .keepsSubscribers { self.downstream = nil }
      let keepsAfterCompletion = flaw == .keepsSubscribers
      lock.unlock()
      if !keepsAfterCompletion { publisher?.release(self) }
      downstream.receive(completion: .finished)
      if flaw == .completesTwice { downstream.receive(completion: .finished) }
      lock.lock()
    }

    func cancel() {
      lock.lock()
      if flaw == .secondCancelResumes {
        cancelled.toggle()
        lock.unlock()
        return
      }
      cancelled = true
      let keepsDownstream: Set<Flaw> = [
        .ignoresCancel, .ignoresCancelFromInsideReceive, .keepsSubscribers, .keepsSubscribersAfterCancel,
      ]
      if let flaw, keepsDownstream.contains(flaw) {} else { downstream = nil }
      lock.unlock()
      if flaw != .keepsSubscribers && flaw != .keepsSubscribersAfterCancel { publisher?.release(self) }
    }
  }
}
