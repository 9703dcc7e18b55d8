extension Publishers {
  /// A publisher that uses a subject to deliver elements to multiple subscribers.
  ///
  /// Subscribers attach to the subject; the upstream publisher is subscribed — once per
  /// call — only when you call ``connect()``, so you can attach every subscriber before the
  /// work starts. The subject is created lazily, once, by `createSubject`.
  ///
  /// ```swift
  /// let multicasted = request.multicast { PassthroughSubject<Data, URLError>() }
  /// let first = multicasted.sink(receiveCompletion: { _ in }, receiveValue: { print("1: \($0)") })
  /// let second = multicasted.sink(receiveCompletion: { _ in }, receiveValue: { print("2: \($0)") })
  /// let connection = multicasted.connect()
  /// ```
  ///
  /// Back-pressure: the subject subscribes upstream with `.unlimited` demand; each
  /// subscriber's own demand is honoured by the subject (see ``PassthroughSubject``).
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
  where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public final let upstream: Upstream

    /// A closure that returns a subject each time a subscriber attaches to the multicast
    /// publisher. It is called once: the subject is shared by every subscriber.
    public final let createSubject: () -> SubjectType

    @usableFromInline
    internal let lock = Lock()

    /// Created on first use (guarded by `lock`).
    @usableFromInline
    internal var lazySubject: SubjectType?

    /// Creates a multicast publisher that applies a closure to create a subject that
    /// delivers elements to subscribers.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - createSubject: A closure that returns the subject to share.
    @inlinable
    public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
      self.upstream = upstream
      self.createSubject = createSubject
    }

    @inlinable
    internal var subject: SubjectType {
      if let existing = lock.withLock({ lazySubject }) { return existing }
      let made = createSubject()
      return lock.withLock { () -> SubjectType in
        if let existing = lazySubject { return existing }
        lazySubject = made
        return made
      }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      subject._subscribeUpstream(MulticastSubscriber(downstream: subscriber))
    }

    /// Subscribes the subject to the upstream publisher; cancel the result to disconnect.
    @inlinable
    public func connect() -> Cancellable {
      upstream.subscribe(subject)
    }
  }
}

extension Publisher {
  /// Applies a closure to create a subject that delivers elements to subscribers.
  ///
  /// Use a multicast publisher when you have multiple downstream subscribers, but you want
  /// upstream publishers to only process one ``Subscriber/receive(_:)`` call per event.
  /// The returned publisher is a ``ConnectablePublisher``: it subscribes upstream only
  /// when you call ``ConnectablePublisher/connect()``.
  ///
  /// ```swift
  /// let pub = ["First", "Second", "Third"].publisher
  ///   .map { ($0, Int.random(in: 0...100)) }
  ///   .print("Random")
  ///   .multicast { PassthroughSubject<(String, Int), Never>() }
  /// cancellable1 = pub.sink { print("Stream 1 received: \($0)") }
  /// cancellable2 = pub.sink { print("Stream 2 received: \($0)") }
  /// pub.connect()
  /// ```
  ///
  /// Back-pressure: see ``Publishers/Multicast``.
  ///
  /// - Parameter createSubject: A closure to create a new ``Subject`` each time a
  ///   subscriber attaches to the multicast publisher.
  /// - Returns: A connectable publisher that uses a subject to deliver elements to
  ///   multiple subscribers.
  @inlinable
  public consuming func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
  where Failure == S.Failure, Output == S.Output {
    Publishers.Multicast(upstream: self, createSubject: createSubject)
  }

  /// Provides a subject to deliver elements to multiple subscribers.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Data, URLError>()
  /// let multicasted = request.multicast(subject: subject)
  /// ```
  ///
  /// - Parameter subject: A subject to deliver elements to downstream subscribers.
  /// - Returns: A connectable publisher that uses `subject`.
  @inlinable
  public consuming func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
  where Failure == S.Failure, Output == S.Output {
    Publishers.Multicast(upstream: self, createSubject: { subject })
  }
}
