extension Publishers {
  /// A publisher that shares the output of an upstream publisher with multiple subscribers.
  ///
  /// This publisher type supports multiple subscribers, all of whom receive unchanged
  /// elements and completion states from the upstream publisher. It subscribes to the
  /// upstream once, with the first subscriber; later subscribers receive only what the
  /// upstream sends after they subscribe (a subscriber arriving after the upstream
  /// completed receives just the completion). `Share` is a class, so every copy of a
  /// reference shares the same upstream subscription.
  ///
  /// ```swift
  /// let shared = URLSession.shared.dataTaskPublisher(for: url).map(\.data).share()
  /// let first = shared.sink(receiveCompletion: { _ in }, receiveValue: { print("1: \($0)") })
  /// let second = shared.sink(receiveCompletion: { _ in }, receiveValue: { print("2: \($0)") })
  /// ```
  ///
  /// Back-pressure: subscribes upstream with `.unlimited` demand; each subscriber receives
  /// values only while it has demand (a value arriving when a subscriber has none is
  /// dropped for that subscriber, as with ``PassthroughSubject``).
  public final class Share<Upstream: Publisher>: Publisher, Equatable {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    @usableFromInline
    internal let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>>

    /// Creates a publisher that shares the output of an upstream publisher with multiple
    /// subscribers.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
      inner = Multicast(upstream: upstream, createSubject: { PassthroughSubject() }).autoconnect()
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      inner.subscribe(subscriber)
    }

    /// Two shares are equal when they are the same object.
    public static func == (lhs: Share, rhs: Share) -> Bool {
      lhs === rhs
    }
  }
}

extension Publisher {
  /// Shares the output of an upstream publisher with multiple subscribers.
  ///
  /// The publisher returned by this operator supports multiple subscribers, all of whom
  /// receive unchanged elements and completion states from the upstream publisher.
  ///
  /// ```swift
  /// let pub = (1...3).publisher
  ///   .delay(for: 1, scheduler: DispatchQueue.main)
  ///   .map { _ in return Int.random(in: 0...100) }
  ///   .print("Random")
  ///   .share()
  /// cancellable1 = pub.sink { print("Stream 1 received: \($0)") }
  /// cancellable2 = pub.sink { print("Stream 2 received: \($0)") }
  /// ```
  ///
  /// Back-pressure: see ``Publishers/Share``.
  ///
  /// - Returns: A class instance that shares elements received from its upstream to
  ///   multiple subscribers.
  @inlinable
  public consuming func share() -> Publishers.Share<Self> {
    Publishers.Share(upstream: self)
  }
}
