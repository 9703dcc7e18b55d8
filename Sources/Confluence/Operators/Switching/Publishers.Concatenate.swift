extension Publishers {
  /// A publisher that emits all of one publisher's elements before those from another
  /// publisher.
  ///
  /// `Concatenate` subscribes to `suffix` only after `prefix` finishes; if `prefix` fails,
  /// the failure is forwarded and `suffix` is never subscribed to.
  ///
  /// ```swift
  /// let cancellable = Publishers.Concatenate(prefix: [1, 2].publisher, suffix: [3].publisher)
  ///   .sink { print($0) }   // 1, 2, 3
  /// ```
  ///
  /// Back-pressure: passes demand to `prefix`; when it finishes, requests from `suffix`
  /// the demand downstream asked for and has not yet received. As Apple's, a value that
  /// arrives outside its publisher's subscription, or beyond the demand, is ignored.
  @_eagerMove
  public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
  where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
    public typealias Output = Suffix.Output
    public typealias Failure = Suffix.Failure

    /// The publisher to republish, in its entirety, before republishing elements from
    /// `suffix`.
    public let prefix: Prefix

    /// The publisher to republish only after `prefix` finishes.
    public let suffix: Suffix

    /// Creates a publisher that emits all of one publisher's elements before those from
    /// another publisher.
    ///
    /// - Parameters:
    ///   - prefix: The publisher to republish, in its entirety, before republishing
    ///     elements from `suffix`.
    ///   - suffix: The publisher to republish only after `prefix` finishes.
    @inlinable
    public init(prefix: Prefix, suffix: Suffix) {
      self.prefix = prefix
      self.suffix = suffix
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let suffix = self.suffix
      let subscription = SwitchingSubscription<Prefix, Suffix, S>(
        name: "Concatenate",
        downstream: subscriber,
        decide: { completion in
          switch completion {
          case .finished: return .switchTo(suffix)
          case .failure(let error): return .complete(.failure(error))
          }
        },
        convertSecondFailure: { $0 })
      // As Apple's, the prefix is subscribed by a subscriber of its own type (sharing the
      // downstream's identity), not by the subscription handed downstream.
      prefix._subscribeUpstream(SwitchingFirstSubscriber(owner: subscription))
    }
  }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publisher {
  /// Appends a publisher's output with the specified elements.
  ///
  /// ```swift
  /// let dataElements = (0...10)
  /// cancellable = dataElements.publisher
  ///   .append(0, 1, 255)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "0 1 2 3 4 5 6 7 8 9 10 0 1 255"
  /// ```
  ///
  /// Back-pressure: the appended elements are sent only against downstream demand.
  ///
  /// - Parameter elements: Elements to publish after this publisher's elements.
  /// - Returns: A publisher that appends the specified elements after this publisher's
  ///   elements.
  @inlinable
  public consuming func append(_ elements: Output...)
    -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>>
  {
    Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
  }

  /// Appends a publisher's output with the specified sequence.
  ///
  /// ```swift
  /// let groundTransport = ["car", "bus", "truck", "subway", "bicycle"]
  /// let airTransport = ["parasail", "jet", "helicopter", "rocket"]
  /// cancellable = groundTransport.publisher
  ///   .append(airTransport)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "car bus truck subway bicycle parasail jet helicopter rocket"
  /// ```
  ///
  /// - Parameter elements: A sequence of elements to publish after this publisher's
  ///   elements.
  /// - Returns: A publisher that appends the sequence of elements after this publisher's
  ///   elements.
  @inlinable
  public consuming func append<S: Sequence>(_ elements: S)
    -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
  where Output == S.Element {
    Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
  }

  /// Appends the output of this publisher with the elements emitted by the given
  /// publisher.
  ///
  /// This operator produces no elements from `publisher` until this publisher finishes. If
  /// this publisher fails with an error, `publisher` is never subscribed to.
  ///
  /// ```swift
  /// let numbers = (0...10)
  /// let otherNumbers = (25...35)
  /// cancellable = numbers.publisher
  ///   .append(otherNumbers.publisher)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "0 1 2 3 4 5 6 7 8 9 10 25 26 27 28 29 30 31 32 33 34 35"
  /// ```
  ///
  /// - Parameter publisher: The appending publisher.
  /// - Returns: A publisher that appends the appending publisher's elements after this
  ///   publisher's elements.
  @inlinable
  public consuming func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
  where Failure == P.Failure, Output == P.Output {
    Publishers.Concatenate(prefix: self, suffix: publisher)
  }

  /// Prefixes a publisher's output with the specified values.
  ///
  /// ```swift
  /// let dataElements = (0...10)
  /// cancellable = dataElements.publisher
  ///   .prepend(0, 1, 255)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "0 1 255 0 1 2 3 4 5 6 7 8 9 10"
  /// ```
  ///
  /// Back-pressure: the values are published as downstream requests them; further demand
  /// then goes to this publisher.
  ///
  /// - Parameter elements: The elements to publish before this publisher's elements.
  /// - Returns: A publisher that prefixes the specified elements prior to this publisher's
  ///   elements.
  @inlinable
  public consuming func prepend(_ elements: Output...)
    -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self>
  {
    Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
  }

  /// Prefixes a publisher's output with the specified sequence.
  ///
  /// ```swift
  /// let prefixValues = [0, 1, 255]
  /// let dataElements = (0...10)
  /// cancellable = dataElements.publisher
  ///   .prepend(prefixValues)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "0 1 255 0 1 2 3 4 5 6 7 8 9 10"
  /// ```
  ///
  /// - Parameter elements: A sequence of elements to publish before this publisher's
  ///   elements.
  /// - Returns: A publisher that prefixes the sequence of elements prior to this
  ///   publisher's elements.
  @inlinable
  public consuming func prepend<S: Sequence>(_ elements: S)
    -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
  where Output == S.Element {
    Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
  }

  /// Prefixes the output of this publisher with the elements emitted by the given
  /// publisher.
  ///
  /// The resulting publisher doesn't emit any elements until the prefixing publisher
  /// finishes.
  ///
  /// ```swift
  /// let numbers = (0...10)
  /// let otherNumbers = (25...35)
  /// cancellable = numbers.publisher
  ///   .prepend(otherNumbers.publisher)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "25 26 27 28 29 30 31 32 33 34 35 0 1 2 3 4 5 6 7 8 9 10"
  /// ```
  ///
  /// - Parameter publisher: The prefixing publisher.
  /// - Returns: A publisher that prefixes the prefixing publisher's elements prior to this
  ///   publisher's elements.
  @inlinable
  public consuming func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
  where Failure == P.Failure, Output == P.Output {
    Publishers.Concatenate(prefix: publisher, suffix: self)
  }
}
