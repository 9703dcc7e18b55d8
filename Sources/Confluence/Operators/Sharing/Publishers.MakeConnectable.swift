extension Publishers {
  /// A publisher that provides explicit connectability to another publisher.
  ///
  /// `MakeConnectable` is a ``ConnectablePublisher``, which allows you to perform
  /// configuration before publishing any elements. Call ``connect()`` on this publisher
  /// when you want to attach to its upstream publisher and start producing elements.
  /// Copies of one `MakeConnectable` value share one connection point.
  ///
  /// ```swift
  /// let connectable = [1, 2, 3].publisher.makeConnectable()
  /// let first = connectable.sink { print("1: \($0)") }
  /// let second = connectable.sink { print("2: \($0)") }
  /// let connection = connectable.connect()
  /// ```
  ///
  /// Back-pressure: subscribes upstream with `.unlimited` demand on ``connect()``; each
  /// subscriber receives values only while it has demand.
  @_eagerMove
  public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    @usableFromInline
    internal let inner: Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>

    /// Creates a connectable publisher, attached to the provide upstream publisher.
    @inlinable
    public init(upstream: Upstream) {
      inner = Multicast(upstream: upstream, createSubject: { PassthroughSubject() })
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      inner.subscribe(subscriber)
    }

    /// Subscribes to the upstream publisher; cancel the result to disconnect.
    @inlinable
    public func connect() -> Cancellable {
      inner.connect()
    }
  }
}

extension Publisher where Failure == Never {
  /// Creates a connectable wrapper around the publisher.
  ///
  /// ```swift
  /// let connectable = subject.share().makeConnectable()
  /// cancellable1 = connectable.sink { print("Stream 1 received: \($0)") }
  /// cancellable2 = connectable.sink { print("Stream 2 received: \($0)") }
  /// connection = connectable.connect()
  /// ```
  ///
  /// - Returns: A ``ConnectablePublisher`` wrapping this publisher.
  @inlinable
  public consuming func makeConnectable() -> Publishers.MakeConnectable<Self> {
    Publishers.MakeConnectable(upstream: self)
  }
}
