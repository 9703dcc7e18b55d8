extension Publishers {
  /// A publisher that encodes elements received from an upstream publisher, using a given
  /// encoder.
  ///
  /// If encoding an element throws, the publisher cancels upstream and fails with the
  /// error; its `Failure` type is therefore `Error`.
  ///
  /// ```swift
  /// let cancellable = Just(Article(title: "Combine"))
  ///   .encode(encoder: JSONEncoder())
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged; no buffering.
  @_eagerMove
  public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
    public typealias Output = Coder.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    @usableFromInline
    internal let encoder: Coder

    /// Creates a publisher that encodes elements received from an upstream publisher,
    /// using a given encoder.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - encoder: The encoder that encodes elements received from the upstream publisher.
    @inlinable
    public init(upstream: Upstream, encoder: Coder) {
      self.upstream = upstream
      self.encoder = encoder
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let encoder = self.encoder
      upstream._subscribeUpstream(
        CodingSubscription<Upstream.Output, Upstream.Failure, S>(name: "Encode", downstream: subscriber) {
          try encoder.encode($0)
        })
    }
  }
}

extension Publisher where Output: Encodable {
  /// Encodes the output from upstream using a specified encoder.
  ///
  /// Use `encode(encoder:)` with a `JSONEncoder` (or a `PropertyListEncoder` for property
  /// lists) to encode an `Encodable` struct into `Data` that could be used to make a JSON
  /// string (or written to disk as a binary plist in the case of property lists).
  ///
  /// ```swift
  /// struct Article: Codable {
  ///   let title: String
  ///   let author: String
  ///   let pubDate: Date
  /// }
  /// let dataProvider = PassthroughSubject<Article, Never>()
  /// let cancellable = dataProvider
  ///   .encode(encoder: JSONEncoder())
  ///   .sink(receiveCompletion: { print ("Completion: \($0)") },
  ///         receiveValue: { data in
  ///           guard let stringRepresentation = String(data: data, encoding: .utf8) else { return }
  ///           print("Data received \(data) string representation: \(stringRepresentation)")
  ///   })
  /// dataProvider.send(Article(title: "My First Article", author: "Gita Kumar", pubDate: Date()))
  /// // Prints: "Data received 86 bytes string representation: {"title":"My First Article",…}"
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameter encoder: An encoder that implements the ``TopLevelEncoder`` protocol.
  /// - Returns: A publisher that encodes received elements using a specified encoder, and
  ///   publishes the resulting data.
  @inlinable
  public consuming func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
    Publishers.Encode(upstream: self, encoder: encoder)
  }
}

/// The subscription of `Encode` and `Decode`; shown by their names in `print`.
///
/// Apple's rules, as the conformance suite records them: each value is coded and passed on
/// until the operator has finished — by a completion (passed on once, even before the
/// subscription), by a coding error (which cancels upstream, if subscribed, and fails
/// downstream) or by a cancel while subscribed. A cancel before the subscription is
/// forgotten. The mirror shows `downstream`, `finished` and `upstreamSubscription`.
///
/// The lock guards the upstream subscription and whether the operator has finished; each
/// value reads that under it, then codes and passes the value on outside it.
@usableFromInline
internal final class CodingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Failure == any Error {
  @usableFromInline internal typealias Failure = UpstreamFailure

  @usableFromInline internal let name: String
  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let transform: (Input) throws -> Downstream.Input

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription  // guarded by `lock`
  /// Whether the operator has finished (guarded by `lock`; `@exclusivity(unchecked)`: the
  /// lock already serialises every access, and the value path reads it).
  @exclusivity(unchecked) @usableFromInline internal var isFinished = false

  @inlinable
  internal init(name: String, downstream: Downstream, transform: @escaping (Input) throws -> Downstream.Input) {
    self.name = name
    self.downstream = downstream
    self.transform = transform
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if lock.withLock({ isFinished }) { return .none }
    // Read before the coder runs (Benchmarks/README.md, "Long pipelines", point 10).
    let next = downstream
    do {
      return next.receive(try transform(input))
    } catch {
      guard let taken = finish() else { return .none }
      taken.cancelSubscription()
      downstream.receive(completion: .failure(error))
      return .none
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard let taken = finish() else { return }
    _fixLifetime(taken)
    downstream.receive(completion: completion.eraseError)
  }

  /// Marks the operator finished; returns what it held, or `nil` if it had finished already.
  @inlinable
  internal func finish() -> SubscriptionStatus? {
    lock.withLock { () -> SubscriptionStatus? in
      if isFinished { return nil }
      isFinished = true
      return status.take()
    }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { status }.requestAndRelease(demand)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { () -> Subscription? in
      guard case .subscribed = status else { return nil }
      isFinished = true
      return status.terminate()
    }?.cancel()
  }

  @usableFromInline
  internal var description: String { name }

  @usableFromInline
  internal var customMirror: Mirror {
    let (upstream, finished) = lock.withLock { (status.subscription, isFinished) }
    return Mirror(
      self,
      children: [
        "downstream": downstream, "finished": finished, "upstreamSubscription": upstream as Any,
      ])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
