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
  public func flatMapLatest<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
    map(transform).switchToLatest()
  }
}
