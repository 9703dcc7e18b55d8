/// A publisher that eventually produces a single value and then finishes or fails.
///
/// Use a future to perform some work and then asynchronously publish a single element.
/// You initialize the future with a closure that takes a ``Future/Promise``; the closure
/// calls the promise with a `Result` that indicates either success or failure:
///
/// ```swift
/// func generateAsyncRandomNumberFromFuture() -> Future<Int, Never> {
///   Future { promise in
///     DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
///       promise(.success(Int.random(in: 1...10)))
///     }
///   }
/// }
/// let cancellable = generateAsyncRandomNumberFromFuture().sink { print("Got \($0)") }
/// ```
///
/// `Future` is a class, and it runs its closure **once, when it is created** — not when a
/// subscriber arrives. It stores the result of the promise and replays it to every
/// subscriber, present and future, so the work is shared; wrap it in ``Deferred`` to run
/// the work once per subscriber instead.
///
/// Each subscriber receives a subscription described as `Future` (what `print` shows).
/// A success is delivered as the value followed by `.finished`, once the subscriber has
/// requested at least one value; a failure is delivered as soon as it is known, demand or
/// not.
///
/// The promise may be called from any thread, and more than once: only the first call
/// counts, later ones are ignored. Subscribing, requesting and cancelling may happen on
/// any thread; the value is delivered on the thread that fulfils the promise or the one
/// that requests demand, whichever comes second.
///
/// Back-pressure: holds one result; sends it on the first non-zero request.
public final class Future<Output, Failure: Error>: Publisher {
  /// A type that represents a closure to invoke in the future, when an element or error
  /// is available.
  ///
  /// The promise closure receives one parameter: a `Result` that contains either a single
  /// element published by a ``Future``, or an error.
  ///
  /// Unlike Apple's, the promise is `@Sendable`: it is safe to call from any thread (only
  /// the first call counts), so Swift 6 code may hand it to another queue or task:
  ///
  /// ```swift
  /// Future<Int, Never> { promise in
  ///   DispatchQueue.global().async { promise(.success(1)) }
  /// }
  /// ```
  ///
  /// Source-compatible: a `@Sendable` closure converts to the plain closure type Apple's
  /// code expects.
  public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

  @usableFromInline
  internal let lock = Lock()

  /// The first result the promise received (guarded by `lock`).
  @usableFromInline
  internal var result: Result<Output, Failure>?

  /// Subscriptions waiting for the result (guarded by `lock`); emptied on fulfilment.
  @usableFromInline
  internal var waiting: [FutureConduitBase<Output, Failure>] = []

  /// Creates a publisher that invokes a promise closure when the publisher emits an
  /// element.
  ///
  /// The closure runs immediately, on the calling thread, before the initializer returns;
  /// the future keeps no reference to it afterwards.
  ///
  /// ```swift
  /// let future = Future<Int, Error> { promise in
  ///   do { promise(.success(try performSomeWork())) } catch { promise(.failure(error)) }
  /// }
  /// ```
  ///
  /// - Parameter attemptToFulfill: A ``Future/Promise`` that the publisher invokes when
  ///   the publisher emits an element or terminates with an error.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    // The future is thread-safe (its state is under `lock`), so the promise may capture it
    // whatever `Output` is, as Apple's promise may be called from any thread.
    nonisolated(unsafe) let future = self
    attemptToFulfill { future.fulfil($0) }
  }

  /// Stores the first result and hands it to every waiting subscription.
  @usableFromInline
  internal func fulfil(_ result: Result<Output, Failure>) {
    let conduits = lock.withLock { () -> [FutureConduitBase<Output, Failure>]? in
      guard self.result == nil else { return nil }
      self.result = result
      defer { waiting = [] }
      return waiting
    }
    guard let conduits else { return }
    for conduit in conduits {
      conduit.fulfil(result)
    }
  }

  /// Forgets a cancelled subscription so that the future no longer retains its subscriber.
  @usableFromInline
  internal func remove(_ conduit: FutureConduitBase<Output, Failure>) {
    let removed = lock.withLock { () -> FutureConduitBase<Output, Failure>? in
      guard let index = waiting.firstIndex(where: { $0 === conduit }) else { return nil }
      return waiting.remove(at: index)
    }
    _ = removed  // released outside the lock
  }

  /// Attaches `subscriber`; it receives the stored result, or the result once the promise
  /// is fulfilled.
  @inlinable
  public final func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let conduit = FutureConduit(parent: self, downstream: subscriber)
    // The subscription goes out before the conduit can be fulfilled, so that a failure
    // (which needs no demand) can never overtake it.
    subscriber.receive(subscription: conduit)
    let known = lock.withLock { () -> Result<Output, Failure>? in
      if let result { return result }
      waiting.append(conduit)
      return nil
    }
    if let known {
      conduit.fulfil(known)
    } else if conduit.isTerminated {
      // Cancelled while we were adding it: it may have looked for itself too early.
      remove(conduit)
    }
  }
}

/// The type-erased face of ``FutureConduit`` that ``Future`` keeps in its waiting list.
@usableFromInline
internal class FutureConduitBase<Output, Failure: Error> {
  @inlinable
  internal init() {}

  /// Delivers `result` now if it can, or keeps it until demand arrives.
  @usableFromInline
  internal func fulfil(_ result: Result<Output, Failure>) {
    fatalError("FutureConduitBase.fulfil(_:) is abstract")
  }
}

/// The subscription of one subscriber to a ``Future``; shown as `Future` by `print`.
///
/// All state is guarded by `lock`. Delivery takes the downstream out under the lock, so it
/// happens exactly once, outside the lock, from whichever of `fulfil` and `request` comes
/// second.
@usableFromInline
internal final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<Downstream.Input, Downstream.Failure>,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal typealias Output = Downstream.Input

  @usableFromInline
  internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var demand = Subscribers.Demand.none
  /// A success that arrived before any demand.
  @usableFromInline internal var pending: Result<Output, Failure>?

  /// The future, to leave its waiting list on cancel; weak, so a future that nobody can
  /// fulfil any more is freed. Cleared (guarded by `lock`) once the future's result has
  /// been handed over by the future itself (Apple's mirror then shows `nil`); kept when
  /// the result waited for demand and a request delivered it.
  @usableFromInline
  internal weak var parent: Future<Output, Failure>?

  @inlinable
  internal init(parent: Future<Output, Failure>, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  /// Whether the subscription was cancelled or has delivered its result.
  @inlinable
  internal var isTerminated: Bool {
    lock.withLock { downstream == nil }
  }

  @inlinable
  internal override func fulfil(_ result: Result<Output, Failure>) {
    let receiver = lock.withLock { () -> Downstream? in
      guard let downstream else { return nil }
      if case .success = result, demand == .none {
        pending = result
        return nil
      }
      self.downstream = nil
      return downstream
    }
    if let receiver {
      Self.deliver(result, to: receiver)
      lock.withLock { parent = nil }
    }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let delivery = lock.withLock { () -> (Result<Output, Failure>, Downstream)? in
      guard let downstream else { return nil }
      self.demand += demand
      guard let pending else { return nil }
      self.pending = nil
      self.downstream = nil
      return (pending, downstream)
    }
    if let (result, receiver) = delivery {
      Self.deliver(result, to: receiver)
    }
  }

  @inlinable
  internal func cancel() {
    let released = lock.withLock { () -> (Downstream?, Result<Output, Failure>?) in
      defer {
        downstream = nil
        pending = nil
      }
      return (downstream, pending)
    }
    guard released.0 != nil else { return }
    lock.withLock { parent }?.remove(self)
  }

  @inlinable
  internal static func deliver(_ result: Result<Output, Failure>, to downstream: Downstream) {
    switch result {
    case .success(let value):
      _ = downstream.receive(value)
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
  }

  @usableFromInline
  internal var description: String { "Future" }

  /// `parent` and `subject` (the future, while it may still hand its result over),
  /// `downstream` (until delivery or cancel) and `hasAnyDemand`, as Apple's.
  @usableFromInline
  internal var customMirror: Mirror {
    let (parent, downstream, demand) = lock.withLock { (self.parent, self.downstream, self.demand) }
    return Mirror(
      self,
      children: [
        "parent": parent as Any,
        "downstream": downstream as Any,
        "hasAnyDemand": demand != .none,
        "subject": parent as Any,
      ])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// A future is safe to share between threads: its result and its waiting subscriptions are
/// guarded by a lock, and its promise may be called from anywhere. (Its value crosses to
/// the subscribers' threads, hence the condition on `Output`.)
extension Future: @unchecked Sendable where Output: Sendable {}
