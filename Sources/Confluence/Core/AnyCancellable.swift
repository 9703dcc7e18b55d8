/// A type-erasing cancellable object that executes a provided closure when canceled.
///
/// Subscriber implementations can use this type to provide a “cancellation token” that
/// makes it possible for a caller to cancel a publisher, but not to use the ``Subscription``
/// object to request items.
///
/// An `AnyCancellable` instance automatically calls ``cancel()`` when deinitialized, so a
/// pipeline lives exactly as long as the token that ``Publisher/sink(receiveValue:)``
/// returned:
///
/// ```swift
/// var cancellables = Set<AnyCancellable>()
/// subject.sink { print($0) }.store(in: &cancellables)
/// cancellables.removeAll()   // cancels the subscription
/// ```
///
/// ``cancel()`` may be called from any thread; the closure runs at most once, and is
/// released as soon as it has run.
public final class AnyCancellable: Cancellable, Hashable {
  @usableFromInline
  internal let lock = Lock()

  /// The closure to run on cancel, until it has run (guarded by `lock`).
  /// `@exclusivity(unchecked)`: only accessed inside `lock.withLock` (and in `init`), so
  /// the dynamic exclusivity check would only repeat what the lock guarantees.
  @exclusivity(unchecked)
  @usableFromInline
  internal var action: (() -> Void)?

  /// Initializes the cancellable object with the given cancel-time closure.
  ///
  /// - Parameter cancel: A closure that the `cancel()` method executes.
  @inlinable
  public init(_ cancel: @escaping () -> Void) {
    action = cancel
  }

  /// Initializes the cancellable object with the given cancellable.
  ///
  /// This initializer is useful when implementing a ``Subscriber``-based object that is
  /// itself ``Cancellable``, such as a sink.
  ///
  /// - Parameter canceller: The cancellable to cancel when this object is cancelled.
  @inlinable
  public init<C: Cancellable>(_ canceller: C) {
    action = canceller.cancel
  }

  @inlinable
  deinit {
    // The last reference is gone, so no other thread can be in `cancel()`, and every
    // earlier `cancel()` happened before this (the final release orders it): `action` is
    // read without the lock. It is moved out rather than copied, which saves a retain and
    // a release of its context (for a sink's token, the sink) per token.
    action.take()?()
  }

  /// Cancel the activity. Runs the closure the first time only.
  @inlinable
  public func cancel() {
    // Moved out through a local rather than returned: a closure returned through
    // `withLock`'s generic result can be wrapped in a reabstraction thunk, an allocation per
    // cancel (it was, with one shape of `withLock` tried while adding its single-thread test).
    var pending: (() -> Void)?
    lock.withLock { pending = action.take() }
    pending?()
  }

  /// Stores this type-erasing cancellable instance in the specified collection.
  ///
  /// - Parameter collection: The collection in which to store this ``AnyCancellable``.
  @inlinable
  public final func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
    collection.append(self)
  }

  /// Stores this type-erasing cancellable instance in the specified set.
  ///
  /// - Parameter set: The set in which to store this ``AnyCancellable``.
  @inlinable
  public final func store(in set: inout Set<AnyCancellable>) {
    set.insert(self)
  }

  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
    lhs === rhs
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

// `action` is only read and cleared under `lock`, and runs at most once, by whichever thread
// cancels first; so tokens may be handed between threads.
extension AnyCancellable: @unchecked Sendable {}
