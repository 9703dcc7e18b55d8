extension Future where Failure == Never {
  /// The published value of the future, delivered asynchronously.
  ///
  /// This property subscribes to the `Future` and delivers the value asynchronously when
  /// the `Future` publishes it. Use this property when you want to use the `async`-`await`
  /// syntax with a `Future`.
  ///
  /// ```swift
  /// let future = Future<Int, Never> { promise in
  ///   DispatchQueue.global().async { promise(.success(42)) }
  /// }
  /// let value = await future.value   // 42
  /// ```
  ///
  /// It waits until the promise is fulfilled, whatever happens to the awaiting task.
  public var value: Output {
    get async {
      // `Never` fails: the result is always a value.
      guard case .success(let output) = await awaitedResult else { fatalError("unreachable: Future<_, Never> failed") }
      return output
    }
  }
}

extension Future {
  /// The published value of the future or an error, delivered asynchronously.
  ///
  /// This property subscribes to the `Future` and delivers the value asynchronously when
  /// the `Future` publishes it. If the `Future` terminates with an error, the awaiting
  /// caller receives the error instead. Use this property when you want to use the
  /// `async`-`await` syntax with a `Future` whose failure type isn't `Never`.
  ///
  /// ```swift
  /// let future = Future<Data, URLError> { promise in promise(.failure(URLError(.timedOut))) }
  /// do {
  ///   _ = try await future.value
  /// } catch {
  ///   print(error)   // the URLError
  /// }
  /// ```
  ///
  /// It waits until the promise is fulfilled, whatever happens to the awaiting task.
  public var value: Output {
    get async throws {
      try await awaitedResult.get()
    }
  }

  /// The promise's result, awaited through a subscriber that asks for the one value.
  internal var awaitedResult: Result<Output, Failure> {
    get async {
      let carried = await withUnsafeContinuation {
        (continuation: UnsafeContinuation<FutureResultCarrier<Output, Failure>, Never>) in
        subscribe(FutureValueSubscriber(continuation))
      }
      return carried.result
    }
  }
}

/// Carries a future's result from the thread that fulfilled it to the awaiting task.
internal struct FutureResultCarrier<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: handed over once; Apple's Future.value does not require a
  // Sendable Output either.
  let result: Result<Output, Failure>
}

/// Subscribes to a future for ``Future/value``: asks for its one value and resumes the
/// awaiting task with it, or with the failure.
internal final class FutureValueSubscriber<Output, Failure: Error>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: a future delivers one value or one completion, once, so
  // `continuation` and `received` are touched by one thread at a time in sequence.
  typealias Input = Output

  private var continuation: UnsafeContinuation<FutureResultCarrier<Output, Failure>, Never>?
  private var received: Output?

  init(_ continuation: UnsafeContinuation<FutureResultCarrier<Output, Failure>, Never>) {
    self.continuation = continuation
  }

  func receive(subscription: Subscription) {
    subscription.request(.max(1))
  }

  func receive(_ input: Output) -> Subscribers.Demand {
    received = input
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard let continuation = continuation.take() else { return }
    switch completion {
    case .failure(let error):
      continuation.resume(returning: FutureResultCarrier(result: .failure(error)))
    case .finished:
      guard let value = received.take() else { return }
      continuation.resume(returning: FutureResultCarrier(result: .success(value)))
    }
  }
}
