extension Publishers {
  /// A strategy for filling a buffer.
  public enum PrefetchStrategy: Equatable, Hashable, Sendable {
    /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
    ///
    /// This strategy starts by making a demand equal to the buffer’s size from the
    /// upstream when the subscriber first connects. Afterwards, it continues to demand
    /// elements from the upstream to try to keep the buffer full.
    case keepFull

    /// A strategy that avoids prefetching and instead performs requests on demand.
    ///
    /// This strategy just forwards the downstream’s requests to the upstream publisher.
    case byRequest
  }

  /// A strategy that handles exhaustion of a buffer’s capacity.
  public enum BufferingStrategy<Failure: Error> {
    /// When the buffer is full, discard the newly received element.
    case dropNewest

    /// When the buffer is full, discard the oldest element in the buffer.
    case dropOldest

    /// When the buffer is full, execute the closure to provide a custom error.
    case customError(() -> Failure)
  }

  /// A publisher that buffers elements from an upstream publisher.
  ///
  /// Elements that arrive while downstream has no demand wait in a buffer of at most
  /// `size` elements; when it is full, `whenFull` decides what happens. Buffered elements
  /// go out, oldest first, as downstream asks for them, and the completion follows the
  /// last of them.
  ///
  /// ```swift
  /// let cancellable = subject
  ///   .buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest)
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: with `.keepFull` it requests `size` elements upstream at once and one
  /// more for each element it hands downstream; with `.byRequest` it forwards downstream's
  /// requests. It never holds more than `size` elements.
  ///
  /// - Complexity: O(`size`) memory.
  @_eagerMove
  public struct Buffer<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of elements to store.
    public let size: Int

    /// The strategy for initially populating the buffer.
    public let prefetch: Publishers.PrefetchStrategy

    /// The action to take when the buffer becomes full.
    public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

    /// Creates a publisher that buffers elements received from an upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - size: The maximum number of elements to store; must not be negative.
    ///   - prefetch: The strategy for initially populating the buffer.
    ///   - whenFull: The action to take when the buffer becomes full.
    @inlinable
    public init(
      upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
      whenFull: Publishers.BufferingStrategy<Upstream.Failure>
    ) {
      confluencePrecondition(size >= 0, "buffer(size: \(size)): the buffer size must not be negative")
      self.upstream = upstream
      self.size = size
      self.prefetch = prefetch
      self.whenFull = whenFull
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        BufferSubscription(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
    }
  }
}

extension Publisher {
  /// Buffers elements received from an upstream publisher.
  ///
  /// Use `buffer(size:prefetch:whenFull:)` to collect a specific number of elements from
  /// an upstream publisher before republishing them to the downstream subscriber
  /// according to the ``Publishers/BufferingStrategy`` and
  /// ``Publishers/PrefetchStrategy`` strategy you specify.
  ///
  /// ```swift
  /// cancellable = subject
  ///   .buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: see ``Publishers/Buffer``.
  ///
  /// - Parameters:
  ///   - size: The maximum number of elements to store.
  ///   - prefetch: The strategy to initially populate the buffer.
  ///   - whenFull: The action to take when the buffer becomes full.
  /// - Returns: A publisher that buffers elements received from an upstream publisher.
  @inlinable
  public consuming func buffer(
    size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
  ) -> Publishers.Buffer<Self> {
    Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
  }
}
