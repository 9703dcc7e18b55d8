extension Publishers {
  /// A publisher that publishes the value of a key path.
  ///
  /// ```swift
  /// struct User { let name: String }
  /// let cancellable = [User(name: "Ada")].publisher
  ///   .map(\.name)
  ///   .sink { print($0) }   // Ada
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged and hands the upstream subscription
  /// straight to the downstream subscriber, like ``Publishers/Map``; the subscriber it
  /// attaches upstream is described as `ValueForKey`. Costs no allocation or lock per
  /// element.
  @_eagerMove
  public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The key path of a property to publish.
    public let keyPath: KeyPath<Upstream.Output, Output>

    /// Creates a publisher that publishes the value of a key path of each upstream
    /// element.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - keyPath: The key path of a property to publish.
    @inlinable
    public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
      self.upstream = upstream
      self.keyPath = keyPath
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let keyPath = self.keyPath
      let newRelay: KeyPathSubscriber<Upstream.Output, Output, S> = KeyPathSubscriber(
        downstream: subscriber, keyPaths: [keyPath]
      ) { $0[keyPath: keyPath] }
      upstream._subscribeUpstream(consume newRelay)
    }
  }
}

extension Publisher {
  /// Publishes the value of a key path.
  ///
  /// In the following example, the `map(_:)` operator uses the Swift key path syntax to
  /// access the `die` member of the `DiceRoll` structure published by the `Just`
  /// publisher. The downstream sink subscriber receives only the value of this `Int`, not
  /// the entire `DiceRoll`.
  ///
  /// ```swift
  /// struct DiceRoll {
  ///   let die: Int
  /// }
  /// cancellable = Just(DiceRoll(die: Int.random(in: 1...6)))
  ///   .map(\.die)
  ///   .sink {
  ///     print ("Rolled: \($0)")
  ///   }
  /// // Prints "Rolled: 3" (or some other random value).
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameter keyPath: The key path of a property on `Output`.
  /// - Returns: A publisher that publishes the value of the key path.
  @inlinable
  public consuming func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
    Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
  }

  /// Publishes the values of two key paths as a tuple.
  ///
  /// ```swift
  /// struct DiceRoll {
  ///   let die1: Int
  ///   let die2: Int
  /// }
  /// cancellable = Just(DiceRoll(die1: Int.random(in: 1...6), die2: Int.random(in: 1...6)))
  ///   .map(\.die1, \.die2)
  ///   .sink { values in
  ///     print ("Rolled: \(values.0), \(values.1) (total: \(values.0 + values.1))")
  ///   }
  /// // Prints "Rolled: 6, 4 (total: 10)" (or other random values).
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameters:
  ///   - keyPath0: The key path of a property on `Output`.
  ///   - keyPath1: The key path of another property on `Output`.
  /// - Returns: A publisher that publishes the values of two key paths as a tuple.
  @inlinable
  public consuming func map<T0, T1>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
  ) -> Publishers.MapKeyPath2<Self, T0, T1> {
    Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
  }

  /// Publishes the values of three key paths as a tuple.
  ///
  /// ```swift
  /// struct DiceRoll {
  ///   let die1: Int
  ///   let die2: Int
  ///   let die3: Int
  /// }
  /// cancellable = Just(DiceRoll(die1: Int.random(in: 1...6), die2: Int.random(in: 1...6), die3: Int.random(in: 1...6)))
  ///   .map(\.die1, \.die2, \.die3)
  ///   .sink { values in
  ///     print ("Rolled: \(values.0), \(values.1), \(values.2) (total \(values.0 + values.1 + values.2))")
  ///   }
  /// // Prints "Rolled: 5, 4, 2 (total 11)" (or other random values).
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameters:
  ///   - keyPath0: The key path of a property on `Output`.
  ///   - keyPath1: The key path of a second property on `Output`.
  ///   - keyPath2: The key path of a third property on `Output`.
  /// - Returns: A publisher that publishes the values of three key paths as a tuple.
  @inlinable
  public consuming func map<T0, T1, T2>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
  ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
    Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
  }
}

/// The subscriber the key-path maps attach upstream: reads the key path(s) of each value
/// and forwards everything else untouched. A value type; the reading closure is made once
/// per subscription, never per element. Generic over its `Output` for the reason
/// `MapSubscriber` gives.
@usableFromInline
@_eagerMove
internal struct KeyPathSubscriber<Input, Output, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Output {
  @usableFromInline
  internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let read: (Input) -> Output

  /// The key paths read, for the mirror only.
  @usableFromInline
  internal let keyPaths: [AnyKeyPath]

  @inlinable
  internal init(downstream: Downstream, keyPaths: [AnyKeyPath], read: @escaping (Input) -> Output) {
    self.downstream = downstream
    self.keyPaths = keyPaths
    self.read = read
  }

  @inlinable
  internal var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  /// Always inlined: a one-call value path (Benchmarks/README.md, "Long pipelines", point 7).
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(read(input))
  }

  /// Passes a run on, each value read through the key paths (a computed property is user
  /// code; see `Subscriber._receiveRun(nextRunsNoUserCode:_:)`).
  @inlinable
  @inline(__always)
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: false) { runStep(next) { read($0) } }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  internal var description: String { keyPaths.count == 1 ? "ValueForKey" : "ValueForKeys" }

  // As Apple's: the key path alone, or each one numbered from zero.
  @usableFromInline
  internal var customMirror: Mirror {
    if keyPaths.count == 1 { return Mirror(self, children: ["keyPath": keyPaths[0]]) }
    return Mirror(
      self, children: keyPaths.enumerated().map { (label: "keyPath\($0.offset)", value: $0.element as Any) })
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
