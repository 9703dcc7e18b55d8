import Confluence

extension Publisher {
  /// Transforms each value into a publisher and republishes their values one publisher at a
  /// time, in the order of the values that created them.
  ///
  /// `concatMap` is `flatMap(maxPublishers: .max(1), transform)`: the publisher made from an
  /// upstream value is subscribed only after the previous one has finished, so its values
  /// never interleave with another's. Use it for work that must not overlap — saving edits
  /// in order, say. It finishes when upstream and the last inner publisher have finished, and
  /// fails as soon as upstream or the current inner publisher fails.
  ///
  /// ```swift
  /// let cancellable = edits
  ///   .concatMap { edit in api.save(edit) }   // one save at a time, in order
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print("saved \($0)") })
  /// ```
  ///
  /// Back-pressure: requests one value from upstream, and the next only when the current
  /// inner publisher finishes, so upstream values wait in upstream, not here. The inner
  /// publisher is asked for values as downstream demands them (see `Publishers.FlatMap`).
  ///
  /// - Parameter transform: Makes the publisher for one upstream value.
  /// - Returns: A `FlatMap` with at most one inner subscription at a time (shown as `FlatMap`
  ///   by `print`).
  @inlinable
  public consuming func concatMap<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Failure {
    flatMap(maxPublishers: .max(1), transform)
  }
}

extension Publisher where Failure == Never {
  /// Transforms each value of a publisher that cannot fail into a publisher that can, and
  /// republishes their values one publisher at a time, in order.
  ///
  /// ```swift
  /// let cancellable = ids.publisher            // never fails
  ///   .concatMap { id in api.story(id: id) }   // fails with API.Error
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: as ``Publisher/concatMap(_:)``.
  ///
  /// - Parameter transform: Makes the publisher for one upstream value.
  /// - Returns: A `FlatMap` with at most one inner subscription at a time.
  @inlinable
  public consuming func concatMap<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
    flatMap(maxPublishers: .max(1), transform)
  }

  /// Transforms each value into a publisher, one publisher at a time, in order, where
  /// neither this publisher nor the inner ones can fail.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher.concatMap { [$0, $0 * 10].publisher }.sink { print($0) }
  /// // 1, 10, 2, 20
  /// ```
  ///
  /// Back-pressure: as ``Publisher/concatMap(_:)``.
  ///
  /// - Parameter transform: Makes the publisher for one upstream value.
  /// - Returns: A `FlatMap` with at most one inner subscription at a time.
  @inlinable
  public consuming func concatMap<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
    flatMap(maxPublishers: .max(1), transform)
  }
}

extension Publisher {
  /// Transforms each value into a publisher that cannot fail, and republishes their values
  /// one publisher at a time, in order.
  ///
  /// ```swift
  /// let cancellable = request                         // can fail
  ///   .concatMap { page in Just(page.items.count) }   // cannot
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: as ``Publisher/concatMap(_:)``.
  ///
  /// - Parameter transform: Makes the publisher for one upstream value.
  /// - Returns: A `FlatMap` with at most one inner subscription at a time.
  @inlinable
  public consuming func concatMap<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
    flatMap(maxPublishers: .max(1), transform)
  }
}
