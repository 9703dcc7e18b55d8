extension Publishers {
  /// A publisher that publishes the values of three key paths as a tuple.
  ///
  /// ```swift
  /// struct Color { let r: Int; let g: Int; let b: Int }
  /// let cancellable = [Color(r: 1, g: 2, b: 3)].publisher
  ///   .map(\.r, \.g, \.b)
  ///   .sink { print($0) }   // (1, 2, 3)
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged and hands the upstream subscription
  /// straight to the downstream subscriber; the subscriber it attaches upstream is
  /// described as `ValueForKey`. Costs no allocation or lock per element.
  @_eagerMove
  public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
    public typealias Output = (Output0, Output1, Output2)
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The key path of a property to publish.
    public let keyPath0: KeyPath<Upstream.Output, Output0>

    /// The key path of a second property to publish.
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    /// The key path of a third property to publish.
    public let keyPath2: KeyPath<Upstream.Output, Output2>

    /// Creates a publisher that publishes the values of three key paths of each upstream
    /// element as a tuple.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - keyPath0: The key path of a property to publish.
    ///   - keyPath1: The key path of a second property to publish.
    ///   - keyPath2: The key path of a third property to publish.
    @inlinable
    public init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>,
      keyPath2: KeyPath<Upstream.Output, Output2>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
      self.keyPath2 = keyPath2
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
      let newRelay: KeyPathSubscriber<Upstream.Output, Output, S> = KeyPathSubscriber(
        downstream: subscriber, keyPaths: [keyPath0, keyPath1, keyPath2]
      ) {
        ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
      }
      upstream._subscribeUpstream(consume newRelay)
    }
  }
}
