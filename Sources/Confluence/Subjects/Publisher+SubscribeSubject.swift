extension Publisher {
  /// Attaches the specified subject to this publisher.
  ///
  /// The subject forwards every value and the completion of this publisher to its own
  /// subscribers, as if they had been sent with `send(_:)` and `send(completion:)`.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let printer = subject.sink { print($0) }
  /// let connection = [1, 2, 3].publisher.subscribe(subject)   // prints 1, 2, 3
  /// ```
  ///
  /// Back-pressure: the subject decides: a `CurrentValueSubject` requests `.unlimited` from
  /// this publisher at once, a `PassthroughSubject` once one of its own subscribers has
  /// requested something (until then this publisher keeps its values).
  ///
  /// The connection refers to the subject weakly, as Apple's does: keep the subject alive
  /// yourself. A subject cancels its upstream subscriptions when it goes away.
  ///
  /// - Parameter subject: The subject to attach to this publisher.
  /// - Returns: A cancellable instance that cancels the upstream subscription; it does so
  ///   too when it is deinitialized.
  @inlinable
  public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where Output == S.Output, Failure == S.Failure {
    let subscriber = SubjectSubscriber(subject: subject)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
