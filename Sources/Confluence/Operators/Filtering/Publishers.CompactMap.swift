extension Publishers {
  /// A publisher that republishes all non-`nil` results of calling a closure with each
  /// received element.
  ///
  /// ```swift
  /// let cancellable = ["1", "two", "3"].publisher
  ///   .compactMap { Int($0) }
  ///   .sink { print($0) }   // 1, 3
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each `nil` it drops. Its subscription is shown as
  /// `CompactMap` by `print`.
  @_eagerMove
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that receives values from the upstream publisher and returns optional
    /// values.
    public let transform: (Upstream.Output) -> Output?

    /// The closures a fused `CompactMap` was built from, one by one, where it was built by
    /// code the compiler did not specialise; `nil` otherwise (see ``CompactMapStages``).
    @usableFromInline
    internal let stages: CompactMapStages<Upstream.Output, Output>?

    /// Creates a publisher that republishes all non-`nil` results of calling a closure
    /// with each received element.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - transform: A closure that receives values from the upstream publisher and
    ///     returns optional values.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
      self.stages = nil
    }

    /// A fused `CompactMap`: `transform` composed from `stages`' closures.
    @inlinable
    internal init(
      upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?,
      stages: CompactMapStages<Upstream.Output, Output>?
    ) {
      self.upstream = upstream
      self.transform = transform
      self.stages = stages
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      _receiveRelay(subscriber)
    }

    /// Moves `relay` into this `compactMap`'s own relay, which it hands to `upstream` in turn
    /// (see `Publisher._receiveRelay(_:)`).
    ///
    /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
    @inlinable
    @inline(__always)
    public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
      // Specialised code runs the composed closure, which the optimiser inlines; code that
      // is not runs a relay per fused closure (see `CompactMapStages`).
      if let stages, !(_isConcrete(Upstream.self) && _isConcrete(S.self)) {
        stages.subscribe(upstream, relay)
      } else {
        upstream._subscribeUpstream(
          CompactMapRelay<Upstream.Output, Output?, S>(downstream: relay, transform: transform))
      }
    }
  }
}

extension Publisher {
  /// Calls a closure with each received element and publishes any returned optional that
  /// has a value.
  ///
  /// Combine’s `compactMap(_:)` operator performs a function similar to that of
  /// `compactMap(_:)` in the Swift standard library: the `compactMap(_:)` operator in
  /// Combine removes `nil` elements in a publisher’s stream and republishes non-`nil`
  /// elements to the downstream subscriber.
  ///
  /// ```swift
  /// let numbers = (0...5)
  /// let romanNumeralDict: [Int : String] = [1: "I", 2: "II", 3: "III", 5: "V"]
  /// cancellable = numbers.publisher
  ///   .compactMap { romanNumeralDict[$0] }
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "I II III V"
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each `nil` it drops.
  ///
  /// - Parameter transform: A closure that receives a value and returns an optional value.
  /// - Returns: Any non-`nil` optional results of the calling the supplied closure.
  @inlinable
  public consuming func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
    Publishers.CompactMap(upstream: self, transform: transform)
  }
}

extension Publishers.CompactMap {
  /// Fuses two compact maps into one `CompactMap`.
  ///
  /// ```swift
  /// let small = texts.publisher.compactMap { Int($0) }.compactMap { $0 < 10 ? $0 : nil }
  /// ```
  ///
  /// - Parameter transform: A closure called only with this publisher's non-`nil` results.
  /// - Returns: One `CompactMap` on the same upstream that applies both closures.
  @inlinable
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
    let fused = CompactMapFusion.compactMap(transform, after: self.transform)
    guard !_isConcrete(Upstream.self) else { return Publishers.CompactMap(upstream: upstream, transform: fused) }
    let stages = (self.stages ?? CompactMapStages(self.transform)).then(compactMap: transform, fused: fused)
    return Publishers.CompactMap(upstream: upstream, transform: fused, stages: stages)
  }

  /// Fuses this compact map with a map into one `CompactMap`.
  ///
  /// ```swift
  /// let doubled = texts.publisher.compactMap { Int($0) }.map { $0 * 2 }
  /// ```
  ///
  /// - Parameter transform: A closure called with each of this publisher's results.
  /// - Returns: One `CompactMap` on the same upstream that applies both closures.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
    let fused = CompactMapFusion.map(transform, after: self.transform)
    guard !_isConcrete(Upstream.self) else { return Publishers.CompactMap(upstream: upstream, transform: fused) }
    let stages = (self.stages ?? CompactMapStages(self.transform)).then(map: transform, fused: fused)
    return Publishers.CompactMap(upstream: upstream, transform: fused, stages: stages)
  }
}

/// The closures fused `compactMap`s run. They are formed here, where the first closure's
/// result type is a generic parameter (`First`, an `Optional`), so that calling them looks no
/// type up at run time in code the compiler did not specialise (see ``OptionalValue``);
/// written inline as `first($0).flatMap(transform)` they looked `Optional`'s metadata up two
/// to three times a value there.
@usableFromInline
internal enum CompactMapFusion {
  /// `first`, then `transform` on its non-`nil` results.
  @inlinable
  internal static func compactMap<Input, First: OptionalValue, Output>(
    _ transform: @escaping (First.Wrapped) -> Output?, after first: @escaping (Input) -> First
  ) -> (Input) -> Output? {
    { first($0).flatMapWrapped(transform) }
  }

  /// `first`, then `transform` on its non-`nil` results, which cannot be `nil`.
  @inlinable
  internal static func map<Input, First: OptionalValue, Output>(
    _ transform: @escaping (First.Wrapped) -> Output, after first: @escaping (Input) -> First
  ) -> (Input) -> Output? {
    { first($0).flatMapWrapped { .some(transform($0)) } }
  }
}

extension Publishers.CompactMap: CustomReflectable {
  /// `upstream` and `transform`, as the mirror of Apple's `CompactMap` shows them; the
  /// closures a fused `CompactMap` keeps one by one for unspecialised code (`stages`) are
  /// left out, so that `print(_:)` and `dump(_:)` show the publisher as Apple's show it.
  ///
  /// ```swift
  /// print(Just("1").compactMap { Int($0) })
  /// // CompactMap<Just<String>, Int>(upstream: Just<String>(output: "1"), transform: (Function))
  /// ```
  public var customMirror: Mirror {
    Mirror(self, children: ["upstream": upstream, "transform": transform], displayStyle: .struct)
  }
}
