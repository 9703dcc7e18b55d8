extension Publishers {
  /// A publisher that decodes elements received from an upstream publisher, using a given
  /// decoder.
  ///
  /// If decoding an element throws, the publisher cancels upstream and fails with the
  /// error; its `Failure` type is therefore `Error`.
  ///
  /// ```swift
  /// let cancellable = URLSession.shared.dataTaskPublisher(for: url)
  ///   .map { $0.data }
  ///   .decode(type: IPInfo.self, decoder: JSONDecoder())
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged; no buffering.
  @_eagerMove
  public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
  where Upstream.Output == Coder.Input {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    @usableFromInline
    internal let decoder: Coder

    /// Creates a publisher that decodes elements received from an upstream publisher, using
    /// a given decoder.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - decoder: The decoder that decodes elements received from the upstream publisher.
    @inlinable
    public init(upstream: Upstream, decoder: Coder) {
      self.upstream = upstream
      self.decoder = decoder
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let decoder = self.decoder
      upstream._subscribeUpstream(
        CodingSubscription<Upstream.Output, Upstream.Failure, S>(name: "Decode", downstream: subscriber) {
          try decoder.decode(Output.self, from: $0)
        })
    }
  }
}

extension Publisher {
  /// Decodes the output from the upstream using a specified decoder.
  ///
  /// Use `decode(type:decoder:)` with a `JSONDecoder` (or a `PropertyListDecoder` for
  /// property lists) to decode data received from a `URLSession.DataTaskPublisher` or
  /// other data source using the `Decodable` protocol. A decoding error fails the
  /// pipeline.
  ///
  /// ```swift
  /// fileprivate struct PostmanEchoTimeStampCheckResponse: Decodable, Hashable {
  ///   let valid: Bool
  /// }
  /// let remoteDataPublisher = URLSession.shared.dataTaskPublisher(for: url)
  ///   .map { $0.data }
  ///   .decode(type: PostmanEchoTimeStampCheckResponse.self, decoder: JSONDecoder())
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameters:
  ///   - type: The encoded data to decode into a struct that conforms to the `Decodable`
  ///     protocol.
  ///   - decoder: A decoder that implements the ``TopLevelDecoder`` protocol.
  /// - Returns: A publisher that decodes a given type using a specified decoder and
  ///   publishes the result.
  @inlinable
  public consuming func decode<Item: Decodable, Coder: TopLevelDecoder>(
    type: Item.Type, decoder: Coder
  ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
    Publishers.Decode(upstream: self, decoder: decoder)
  }
}
