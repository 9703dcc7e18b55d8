extension Publishers {
  /// A publisher that republishes all non-`nil` results of calling an error-throwing
  /// closure with each received element.
  ///
  /// If the closure throws, the publisher cancels its upstream and fails with the error.
  ///
  /// ```swift
  /// struct Forbidden: Error {}
  /// let cancellable = ["1", "two", "13", "4"].publisher
  ///   .tryCompactMap { text -> Int? in
  ///     if text == "13" { throw Forbidden() }
  ///     return Int(text)
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // 1, failure(Forbidden())
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each `nil` it drops. Its subscription is shown as
  /// `TryCompactMap` by `print`.
  @_eagerMove
  public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure that receives values from the upstream publisher and
    /// returns optional values.
    public let transform: (Upstream.Output) throws -> Output?

    /// Creates a publisher that republishes all non-`nil` results of calling an
    /// error-throwing closure with each received element.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - transform: An error-throwing closure that receives values from the upstream
    ///     publisher and returns optional values.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(
          downstream: subscriber,
          logic: TryCompactMapLogic<Upstream.Output, Output, Upstream.Failure>(transform: transform)))
    }
  }
}

extension Publisher {
  /// Calls an error-throwing closure with each received element and publishes any
  /// returned optional that has a value.
  ///
  /// Use `tryCompactMap(_:)` to remove `nil` elements from a publisher’s stream based on
  /// an error-throwing closure you provide. If the closure throws an error, the publisher
  /// cancels the upstream publisher and sends the thrown error to the downstream
  /// subscriber as a failure.
  ///
  /// ```swift
  /// struct ParseError: Error {}
  /// func romanNumeral(from: Int) throws -> String? {
  ///   let romanNumeralDict: [Int : String] = [1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"]
  ///   guard from != 0 else { throw ParseError() }
  ///   return romanNumeralDict[from]
  /// }
  /// let numbers = [6, 5, 4, 3, 2, 1, 0]
  /// cancellable = numbers.publisher
  ///   .tryCompactMap { try romanNumeral(from: $0) }
  ///   .sink(
  ///     receiveCompletion: { print ("\($0)") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "V IV III II I failure(ParseError())"
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each `nil` it drops; a thrown
  /// error cancels upstream.
  ///
  /// - Parameter transform: An error-throwing closure that receives a value and returns
  ///   an optional value.
  /// - Returns: Any non-`nil` optional results of calling the supplied closure.
  @inlinable
  public consuming func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?)
    -> Publishers.TryCompactMap<Self, T>
  {
    Publishers.TryCompactMap(upstream: self, transform: transform)
  }
}

extension Publishers.TryCompactMap {
  /// Fuses this error-throwing compact map with another into one `TryCompactMap`.
  ///
  /// ```swift
  /// let checked = texts.publisher.tryCompactMap { try parse($0) }.compactMap { $0.first }
  /// ```
  ///
  /// - Parameter transform: An error-throwing closure called only with this publisher's
  ///   non-`nil` results.
  /// - Returns: One `TryCompactMap` on the same upstream that applies both closures.
  @inlinable
  public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryCompactMap(upstream: upstream) { input in
      guard let intermediate = try first(input) else { return nil }
      return try transform(intermediate)
    }
  }
}

/// `tryCompactMap`'s per-value decision: publish non-`nil` results, skip `nil`s, or fail
/// with what the closure threw.
@usableFromInline
internal struct TryCompactMapLogic<Input, Output, UpstreamFailure: Error>: FilteringLogic {
  @usableFromInline internal typealias Failure = any Error

  @usableFromInline
  internal let transform: (Input) throws -> Output?

  @inlinable
  internal init(transform: @escaping (Input) throws -> Output?) {
    self.transform = transform
  }

  @inlinable
  internal static var name: String { "TryCompactMap" }

  @inlinable
  internal static var edges: FilteringEdges { .strict }

  @inlinable
  @inline(__always)
  internal func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Output {
    let output: Output?
    do {
      output = try transform(input)
    } catch {
      return .failed(error)
    }
    guard let output else { return .skipped }
    return .published(target.receive(output))
  }

  @inlinable
  internal func convert(_ failure: UpstreamFailure) -> any Error { failure }
}
