extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a provided
  /// error-throwing closure.
  ///
  /// If the closure throws, the publisher cancels its upstream and fails with the error.
  ///
  /// ```swift
  /// struct ParseError: Error {}
  /// let cancellable = ["1", "2", "x"].publisher
  ///   .tryMap { text -> Int in
  ///     guard let value = Int(text) else { throw ParseError() }
  ///     return value
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // 1, 2, failure(ParseError())
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged. Unlike ``Publishers/Map`` it stands
  /// between upstream and downstream (it must be able to cancel upstream when the closure
  /// throws), so `print` placed after it shows `TryMap`.
  @_eagerMove
  public struct TryMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) throws -> Output

    /// Creates a publisher that transforms all elements from the upstream publisher with a
    /// provided error-throwing closure.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - transform: The error-throwing closure that transforms elements from the
    ///     upstream publisher.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(
          downstream: subscriber, logic: TryMapLogic<Upstream.Output, Output, Upstream.Failure>(transform: transform)))
    }
  }
}

extension Publisher {
  /// Transforms all elements from the upstream publisher with a provided error-throwing
  /// closure.
  ///
  /// Combine’s `tryMap(_:)` operator performs a function similar to that of `map(_:)` in
  /// the Swift standard library: it uses a closure to transform each element it receives
  /// from the upstream publisher. You use `tryMap(_:)` to transform from one kind of
  /// element to another, and to terminate publishing when a map’s closure throws an error.
  ///
  /// ```swift
  /// struct ParseError: Error {}
  /// func romanNumeral(from: Int) throws -> String {
  ///   let romanNumeralDict: [Int: String] = [1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"]
  ///   guard let numeral = romanNumeralDict[from] else { throw ParseError() }
  ///   return numeral
  /// }
  /// let numbers = [5, 4, 3, 2, 1, 0]
  /// cancellable = numbers.publisher
  ///   .tryMap { try romanNumeral(from: $0) }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "V IV III II I completion: failure(ParseError())"
  /// ```
  ///
  /// If your closure doesn’t throw, use `map(_:)` instead.
  ///
  /// Back-pressure: passes demand through unchanged; a thrown error cancels upstream.
  ///
  /// - Parameter transform: A closure that takes one element as its parameter and returns
  ///   a new element. If the closure throws an error, the publisher fails with the thrown
  ///   error.
  /// - Returns: A publisher that uses the provided closure to map elements from the
  ///   upstream publisher to new elements that it then publishes.
  @inlinable
  public consuming func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
    Publishers.TryMap(upstream: self, transform: transform)
  }
}

extension Publishers.Map {
  /// Fuses this map with an error-throwing map into one ``Publishers/TryMap``:
  /// `map(f).tryMap(g)` becomes `tryMap { try g(f($0)) }`.
  ///
  /// ```swift
  /// let parsed = lines.publisher.map { $0.trimmed }.tryMap { try parse($0) }
  /// ```
  ///
  /// - Parameter transform: An error-throwing closure applied to the output of this map.
  /// - Returns: One `TryMap` on the same upstream that applies both closures.
  @inlinable
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
  }
}

extension Publishers.TryMap {
  /// Fuses this error-throwing map with a map into one `TryMap`:
  /// `tryMap(f).map(g)` becomes `tryMap { g(try f($0)) }`.
  ///
  /// ```swift
  /// let lengths = lines.publisher.tryMap { try parse($0) }.map { $0.count }
  /// ```
  ///
  /// - Parameter transform: A closure applied to the output of this map.
  /// - Returns: One `TryMap` on the same upstream that applies both closures.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
  }

  /// Fuses two error-throwing maps into one `TryMap`:
  /// `tryMap(f).tryMap(g)` becomes `tryMap { try g(try f($0)) }`.
  ///
  /// ```swift
  /// let checked = lines.publisher.tryMap { try parse($0) }.tryMap { try validate($0) }
  /// ```
  ///
  /// - Parameter transform: An error-throwing closure applied to the output of this map.
  /// - Returns: One `TryMap` on the same upstream that applies both closures.
  @inlinable
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
  }
}

/// `tryMap`'s per-value decision: publish the transformed value, or fail with what the
/// closure threw.
@usableFromInline
internal struct TryMapLogic<Input, Output, UpstreamFailure: Error>: FilteringLogic {
  @usableFromInline internal typealias Failure = any Error

  @usableFromInline
  internal let transform: (Input) throws -> Output

  @inlinable
  internal init(transform: @escaping (Input) throws -> Output) {
    self.transform = transform
  }

  @inlinable
  internal static var name: String { "TryMap" }

  @inlinable
  internal static var edges: FilteringEdges { .stateless }

  @inlinable
  internal func reflectedChildren(downstream: Any, status: String) -> KeyValuePairs<String, Any> {
    [:]
  }

  @inlinable
  @inline(__always)
  internal func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Output {
    let output: Output
    do {
      output = try transform(input)
    } catch {
      return .failed(error)
    }
    return .published(target.receive(output))
  }

  @inlinable
  internal func convert(_ failure: UpstreamFailure) -> any Error { failure }
}
