import Confluence

extension Publishers.Create {
  /// Sends values and a completion to one subscriber of a ``Publishers/Create`` publisher.
  ///
  /// ```swift
  /// Publishers.Create<String, Error> { subscriber in
  ///   let task = client.fetch { result in
  ///     switch result {
  ///     case .success(let text):
  ///       subscriber.send(text)
  ///       subscriber.send(completion: .finished)
  ///     case .failure(let error):
  ///       subscriber.send(completion: .failure(error))
  ///     }
  ///   }
  ///   return AnyCancellable { task.cancel() }
  /// }
  /// ```
  ///
  /// Thread safety: every method may be called from any thread, concurrently. Values sent
  /// after the completion, or after the subscriber cancelled, are ignored.
  ///
  /// Back-pressure: sending never blocks; values beyond the subscriber's demand wait in the
  /// subscription's unbounded buffer (see ``Publishers/Create``).
  public struct Emitter {
    @usableFromInline
    internal let sink: CreateSink<Output, Failure>

    @inlinable
    internal init(sink: CreateSink<Output, Failure>) {
      self.sink = sink
    }

    /// Sends a value: delivers it now if the subscriber has demand, otherwise buffers it.
    ///
    /// - Parameter input: The value to send.
    @inlinable
    public func send(_ input: Output) {
      sink.send(input)
    }

    /// Sends the completion, after any buffered values. Later sends are ignored.
    ///
    /// - Parameter completion: `.finished`, or `.failure` with the error.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
      sink.send(completion: completion)
    }
  }
}

extension Publishers.Create.Emitter where Output == Void {
  /// Sends a `Void` value.
  ///
  /// ```swift
  /// Publishers.Create<Void, Never> { subscriber in
  ///   let observer = center.addObserver(forName: .changed) { _ in subscriber.send() }
  ///   return AnyCancellable { center.removeObserver(observer) }
  /// }
  /// ```
  @inlinable
  public func send() {
    sink.send(())
  }
}

extension Publishers.Create.Emitter: Sendable where Output: Sendable {}
