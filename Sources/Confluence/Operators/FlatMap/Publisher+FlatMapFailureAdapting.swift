extension Publisher where Failure == Never {
  /// Transforms all elements from an upstream publisher that cannot fail into new
  /// publishers that can, up to a maximum number of publishers you specify.
  ///
  /// The upstream is retyped with `setFailureType(to:)` so its failure type matches the
  /// inner publishers'.
  ///
  /// ```swift
  /// let cancellable = ids.publisher        // Failure == Never
  ///   .flatMap { id in api.story(id: id) } // Failure == API.Error
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: see ``Publishers/FlatMap``.
  @inlinable
  public consuming func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
    Publishers.FlatMap(
      upstream: setFailureType(to: P.Failure.self), maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher {
  /// Transforms all elements from an upstream publisher into new publishers that cannot
  /// fail, up to a maximum number of publishers you specify.
  ///
  /// Each inner publisher is retyped with `setFailureType(to:)` to the upstream's failure
  /// type.
  ///
  /// Back-pressure: see ``Publishers/FlatMap``.
  @inlinable
  public consuming func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
  }
}

extension Publisher where Failure == Never {
  /// Transforms all elements from an upstream publisher that cannot fail into new
  /// publishers that cannot fail either, up to a maximum number of publishers you specify.
  ///
  /// Back-pressure: see ``Publishers/FlatMap``.
  @inlinable
  public consuming func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}
