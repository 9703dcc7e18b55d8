import CConfluenceSystem

/// The state machine of an `Autoconnect`: its connection and the number of subscribers it
/// serves. Guarded by the publisher's lock; the transitions never call out.
///
/// Invariant: at most one thread at a time connects upstream for a given connection,
/// except re-entrantly on that same thread (Apple's recorded rule, below). A subscriber
/// that arrives from another thread while a connection is being made (`connecting`) joins
/// it: it is counted and subscribed, and does not connect again.
@usableFromInline
internal enum AutoconnectState {
  /// No connection: the next subscriber connects.
  case disconnected
  /// `thread` (a `confluence_thread_token()`) is inside `connect()`, for `subscribers`
  /// subscribers so far.
  case connecting(subscribers: Int, thread: UInt)
  /// Connected, serving `subscribers` subscribers that have not cancelled.
  case connected(Cancellable, subscribers: Int)

  /// The calling thread's identity.
  @inlinable
  internal static var currentThread: UInt { confluence_thread_token() }

  /// A subscriber arrives on `thread`. Returns `true` if the caller must connect (after
  /// subscribing it) and then report the connection with ``connected(_:on:)``.
  ///
  /// One that arrives re-entrantly on the connecting thread (during the first
  /// subscription, before `connect()` returned) connects again, as Apple's `Autoconnect`
  /// does.
  @inlinable
  internal mutating func subscribe(on thread: UInt) -> Bool {
    switch self {
    case .disconnected:
      self = .connecting(subscribers: 1, thread: thread)
      return true
    case .connecting(let subscribers, let connecting):
      if connecting == thread {
        self = .connecting(subscribers: 1, thread: thread)
        return true
      }
      self = .connecting(subscribers: subscribers + 1, thread: connecting)
      return false
    case .connected(let connection, let subscribers):
      self = .connected(connection, subscribers: subscribers + 1)
      return false
    }
  }

  /// `connect()` returned `connection` on `thread`. The subscribers counted while it was
  /// being made are its subscribers. If a re-entrant subscriber connected again meanwhile,
  /// this later connection replaces that one with a count of one, as Apple's does.
  @inlinable
  internal mutating func connected(_ connection: Cancellable, on thread: UInt) {
    if case .connecting(let subscribers, let connecting) = self, connecting == thread {
      self = .connected(connection, subscribers: subscribers)
    } else {
      self = .connected(connection, subscribers: 1)
    }
  }

  /// A subscriber cancelled. Returns the connection to cancel (outside the lock) if it was
  /// the last one. While a connection is being made, a cancel only uncounts a subscriber
  /// that joined it; the connection is recorded when `connect()` returns (Apple's record: a
  /// subscriber that cancels during its own connection leaves the connection in place).
  @inlinable
  internal mutating func subscriberDidCancel() -> Cancellable? {
    switch self {
    case .disconnected:
      return nil
    case .connecting(let subscribers, let thread):
      if subscribers > 1 {
        self = .connecting(subscribers: subscribers - 1, thread: thread)
      }
      return nil
    case .connected(let connection, let subscribers):
      if subscribers > 1 {
        self = .connected(connection, subscribers: subscribers - 1)
        return nil
      }
      self = .disconnected
      return connection
    }
  }
}
