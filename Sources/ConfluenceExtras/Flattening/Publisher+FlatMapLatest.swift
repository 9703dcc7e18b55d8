import Confluence

extension Publisher {
  /// Transforms each value into a publisher and republishes the values of only the most
  /// recent one, cancelling the previous publisher as soon as a new value arrives.
  ///
  /// `flatMapLatest` is `map(transform).switchToLatest()`. It fits work whose earlier results
  /// go stale: a search per keystroke, where only the latest query's results matter. It
  /// finishes when upstream and the current inner publisher have finished, and fails as soon
  /// as upstream or the current inner publisher fails.
  ///
  /// ```swift
  /// let cancellable = query
  ///   .flatMapLatest { text in api.search(text) }   // older searches are cancelled
  ///   .sink { results in show(results) }
  /// ```
  ///
  /// Back-pressure: requests `.unlimited` from upstream (each value replaces the previous
  /// inner publisher); downstream demand goes to the current inner publisher, and what it
  /// has not used carries over to the next one (see `Publishers.SwitchToLatest`).
  ///
  /// - Parameter transform: Makes the publisher for one upstream value. Called once per
  ///   upstream value, before the previous inner publisher is cancelled.
  /// - Returns: A `SwitchToLatest` over the mapped publishers (shown as `SwitchToLatest` by
  ///   `print`).
  @inlinable
  public consuming func flatMapLatest<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
    map(transform).switchToLatest()
  }
}

extension Publisher where Failure == Never {
  /// Transforms each value of a publisher that cannot fail into a publisher that can, and
  /// republishes only the latest one's values.
  ///
  /// ```swift
  /// let cancellable = $query                          // never fails
  ///   .flatMapLatest { api.search($0) }               // fails with API.Error
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
  /// ```
  ///
  /// Back-pressure: as ``Publisher/flatMapLatest(_:)``.
  ///
  /// - Parameter transform: Makes the publisher for one upstream value.
  /// - Returns: A `SwitchToLatest` over the mapped publishers.
  @inlinable
  public consuming func flatMapLatest<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.SwitchToLatest<P, Publishers.SetFailureType<Publishers.Map<Self, P>, P.Failure>> {
    map(transform).switchToLatest()
  }

  /// Transforms each value into a publisher and republishes only the latest one's values,
  /// where neither this publisher nor the inner ones can fail.
  ///
  /// ```swift
  /// let cancellable = $selection.flatMapLatest { id in store.itemPublisher(id) }.sink { show($0) }
  /// ```
  ///
  /// Back-pressure: as ``Publisher/flatMapLatest(_:)``.
  ///
  /// - Parameter transform: Makes the publisher for one upstream value.
  /// - Returns: A `SwitchToLatest` over the mapped publishers.
  @inlinable
  public consuming func flatMapLatest<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Never {
    map(transform).switchToLatest()
  }
}

extension Publisher {
  /// Transforms each value into a publisher that cannot fail, and republishes only the
  /// latest one's values.
  ///
  /// ```swift
  /// let cancellable = session                                  // can fail
  ///   .flatMapLatest { user in Just(user.name) }               // cannot
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: as ``Publisher/flatMapLatest(_:)``.
  ///
  /// - Parameter transform: Makes the publisher for one upstream value.
  /// - Returns: A `SwitchToLatest` over the mapped publishers.
  @inlinable
  public consuming func flatMapLatest<P: Publisher>(
    _ transform: @escaping (Output) -> P
  )
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<P, Failure>, Publishers.Map<Self, Publishers.SetFailureType<P, Failure>>
    > where P.Failure == Never
  {
    map { transform($0).setFailureType(to: Failure.self) }.switchToLatest()
  }
}
