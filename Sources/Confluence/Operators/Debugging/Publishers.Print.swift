extension Publishers {
  /// A publisher that prints log messages for all publishing events, optionally prefixed
  /// with a given string.
  ///
  /// This publisher prints log messages when receiving the following events:
  ///
  /// - subscription: `receive subscription: (1...3)` — the upstream subscription's description
  /// - demand: `request unlimited`, `request max: (1)`; demand returned from the downstream
  ///   subscriber's `receive(_:)` as `request max: (1) (synchronous)`
  /// - value: `receive value: (1)`
  /// - normal completion: `receive finished`
  /// - failure: `receive error: (…)`
  /// - cancellation: `receive cancel`
  ///
  /// A non-empty prefix is followed by `": "`, so `print("publisher")` prints
  /// `publisher: receive value: (1)`.
  ///
  /// `receive cancel` is printed once, for the first cancel of a live subscription. A
  /// completion that upstream sends after a cancel is still printed (it shows what upstream
  /// did) but is not passed downstream.
  ///
  /// ```swift
  /// let subscription = (1...3).publisher
  ///   .print("publisher")
  ///   .sink { _ in }
  /// // publisher: receive subscription: (1...3)
  /// // publisher: request unlimited
  /// // publisher: receive value: (1)
  /// // publisher: receive value: (2)
  /// // publisher: receive value: (3)
  /// // publisher: receive finished
  /// ```
  ///
  /// Each message goes to `stream` as two `write` calls — the message, then `"\n"` — just
  /// as `print(_:to:)` writes; with no stream it goes to standard output. Writes to one
  /// stream never overlap: while one thread writes, messages from other threads queue and
  /// are written in order, and the stream is never called with a lock held.
  ///
  /// Back-pressure: passes demand through unchanged. Downstream receives the `Print`
  /// subscription (described as `Print`), which logs requests and cancellation before
  /// passing them upstream.
  @_eagerMove
  public struct Print<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// A string with which to prefix all log messages.
    public let prefix: String

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The stream that receives the log messages, or `nil` for standard output.
    public let stream: TextOutputStream?

    /// Serialises the writes to `stream`; `nil` for standard output.
    @usableFromInline
    internal let output: PrintOutput?

    /// Creates a publisher that prints log messages for all publishing events.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - prefix: A string with which to prefix all log messages.
    ///   - stream: A stream for text output that receives messages, and which directs
    ///     output to the console by default. A custom stream can be used to log messages
    ///     to other destinations.
    @inlinable
    public init(upstream: Upstream, prefix: String, to stream: TextOutputStream? = nil) {
      self.upstream = upstream
      self.prefix = prefix
      self.stream = stream
      self.output = stream.map(PrintOutput.init(stream:))
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(PrintSubscription(downstream: subscriber, prefix: prefix, output: output))
    }
  }
}

extension Publisher {
  /// Prints log messages for all publishing events.
  ///
  /// Use `print(_:to:)` to log messages to the console, or to a custom stream:
  ///
  /// ```swift
  /// let integers = (1...2)
  /// cancellable = integers.publisher
  ///   .print("Logged a message", to: nil)
  ///   .sink { _ in }
  /// // Prints:
  /// //  Logged a message: receive subscription: (1...2)
  /// //  Logged a message: request unlimited
  /// //  Logged a message: receive value: (1)
  /// //  Logged a message: receive value: (2)
  /// //  Logged a message: receive finished
  /// ```
  ///
  /// See ``Publishers/Print`` for the exact messages.
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameters:
  ///   - prefix: A string — which defaults to empty — with which to prefix all log
  ///     messages. A non-empty prefix is followed by `": "`.
  ///   - stream: A stream for text output that receives messages, and which directs output
  ///     to the console by default. A custom stream can be used to log messages to other
  ///     destinations.
  /// - Returns: A publisher that prints log messages for all publishing events.
  @inlinable
  public consuming func print(_ prefix: String = "", to stream: TextOutputStream? = nil) -> Publishers.Print<Self> {
    Publishers.Print(upstream: self, prefix: prefix, to: stream)
  }
}

/// Stands between upstream and downstream for `Print`, logging every event that passes;
/// shown as `Print`.
///
/// Values pass without taking this class's lock (upstream serialises them and stops after
/// `cancel()`); the lock guards only the upstream subscription. Messages are written with
/// no lock held.
@usableFromInline
internal final class PrintSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  /// The prefix followed by `": "`, or empty.
  @usableFromInline
  internal let linePrefix: String

  /// `nil` for standard output.
  @usableFromInline
  internal let output: PrintOutput?

  @usableFromInline
  internal let lock = Lock()

  @usableFromInline
  internal var status = SubscriptionStatus.awaitingSubscription

  @inlinable
  internal init(downstream: Downstream, prefix: String, output: PrintOutput?) {
    self.downstream = downstream
    self.linePrefix = prefix.isEmpty ? "" : prefix + ": "
    self.output = output
  }

  // Apple's rules, as the conformance suite records them: every event and every call is
  // printed and every event passed on (every subscription offered — extras are then
  // cancelled —, every completion, values after one); a cancel reaches upstream once, while
  // subscribed, and after it requests stay here. A cancel before the subscription is
  // printed but not remembered.

  @inlinable
  internal func receive(subscription: Subscription) {
    log("receive subscription: (\(subscription))")
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    log("receive value: (\(input))")
    let demand = downstream.receive(input)
    if demand != .none {
      log("request \(PrintSubscription.describe(demand)) (synchronous)")
    }
    return demand
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished:
      log("receive finished")
    case .failure(let error):
      log("receive error: (\(error))")
    }
    // Upstream's subscription is released (it ends here), so that nothing keeps the chain.
    let released = lock.withLock { status.take() }
    _fixLifetime(released)
    downstream.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    log("request \(PrintSubscription.describe(demand))")
    lock.withLock { status }.requestAndRelease(demand)
  }

  @inlinable
  internal func cancel() {
    log("receive cancel")
    let upstream = lock.withLock { () -> Subscription? in
      guard case .subscribed = status else { return nil }
      return status.terminate()
    }
    upstream?.cancel()
  }

  /// `unlimited` or `max: (n)`, as Apple's `print` writes demand.
  @inlinable
  internal static func describe(_ demand: Subscribers.Demand) -> String {
    if let max = demand.max {
      return "max: (\(max))"
    }
    return "unlimited"
  }

  /// Writes one message, prefixed, with no lock held.
  @inlinable
  internal func log(_ message: String) {
    let line = linePrefix + message
    if let output {
      output.write(line: line)
    } else {
      Swift.print(line)
    }
  }

  @usableFromInline
  internal var description: String { "Print" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
