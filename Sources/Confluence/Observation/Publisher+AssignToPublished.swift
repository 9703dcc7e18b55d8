extension Publisher where Failure == Never {
  /// Republishes elements received from a publisher, by assigning them to a property
  /// marked as a publisher.
  ///
  /// Use this operator when you want to receive elements from a publisher and republish
  /// them through a property marked with the `@Published` attribute. The `assign(to:)`
  /// operator manages the life cycle of the subscription, canceling the subscription
  /// automatically when the ``Published`` instance deinitializes. Because of this, the
  /// `assign(to:)` operator doesn’t return an ``AnyCancellable`` that you’re responsible
  /// for like ``assign(to:on:)`` does.
  ///
  /// ```swift
  /// class MyModel: ObservableObject {
  ///   @Published var lastUpdated: Int = 0
  ///   init(ticks: PassthroughSubject<Int, Never>) {
  ///     ticks.assign(to: &$lastUpdated)
  ///   }
  /// }
  /// ```
  ///
  /// Each assignment is an ordinary set of the property: it signals the object's
  /// `objectWillChange` and publishes to `$property` subscribers. The subscription holds
  /// the property's storage only weakly, so it never keeps the object alive.
  ///
  /// Back-pressure: requests an unlimited number of values.
  ///
  /// - Parameter published: A property marked with the `@Published` attribute, which
  ///   receives and republishes all elements received from the upstream publisher.
  @inlinable
  public func assign(to published: inout Published<Output>.Publisher) {
    subscribe(ObservationPublishedSubscriber(box: published.box))
  }
}
