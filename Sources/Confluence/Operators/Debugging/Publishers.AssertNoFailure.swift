extension Publishers {
  /// A publisher that raises a fatal error upon receiving any failure, and otherwise
  /// republishes all received input.
  ///
  /// Use this function for internal integrity checks that are active during testing but
  /// don't affect performance of shipping code. Its `Failure` type is `Never`, so it also
  /// lets a pipeline that cannot fail in practice reach `assign` or `sink(receiveValue:)`.
  ///
  /// ```swift
  /// let cancellable = subject
  ///   .assertNoFailure("What could possibly go wrong?")
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: passes demand, values and the upstream subscription through unchanged;
  /// costs no allocation or lock per element.
  @_eagerMove
  public struct AssertNoFailure<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Never

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The string used at the beginning of the fatal error message.
    public let prefix: String

    /// The filename used in the error message.
    public let file: StaticString

    /// The line number used in the error message.
    public let line: UInt

    /// Creates a publisher that raises a fatal error upon receiving any failure, and
    /// otherwise republishes all received input.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - prefix: The string used at the beginning of the fatal error message.
    ///   - file: The filename used in the error message.
    ///   - line: The line number used in the error message.
    @inlinable
    public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
      self.upstream = upstream
      self.prefix = prefix
      self.file = file
      self.line = line
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        AssertNoFailureSubscriber<Upstream.Failure, S>(
          downstream: subscriber, prefix: prefix, file: file, line: line))
    }
  }
}

extension Publisher {
  /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all
  /// received input.
  ///
  /// Use `assertNoFailure()` for internal integrity checks that are active during testing.
  /// Like its Swift counterpart `fatalError(_:)`, the `assertNoFailure()` operator asserts
  /// a fatal exception when triggered, in development, testing and shipping versions of
  /// code alike. The message is `prefix`, a space (if `prefix` is not empty) and the
  /// error.
  ///
  /// ```swift
  /// public enum SubjectError: Error { case genericSubjectError }
  /// let subject = CurrentValueSubject<String, Error>("initial value")
  /// subject
  ///   .assertNoFailure()
  ///   .sink(receiveCompletion: { print ("completion: \($0)") },
  ///         receiveValue: { print ("value: \($0).") })
  /// subject.send("second value")
  /// subject.send(completion: Subscribers.Completion<Error>.failure(SubjectError.genericSubjectError))
  /// // Prints:
  /// //  value: initial value.
  /// //  value: second value.
  /// // The process then terminates in the debugger as the assertNoFailure operator
  /// // catches the genericSubjectError.
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameters:
  ///   - prefix: A string used at the beginning of the fatal error message.
  ///   - file: A filename used in the error message. This defaults to `#file`.
  ///   - line: A line number used in the error message. This defaults to `#line`.
  /// - Returns: A publisher that raises a fatal error when its upstream publisher fails.
  @inlinable
  public consuming func assertNoFailure(
    _ prefix: String = "", file: StaticString = #file, line: UInt = #line
  ) -> Publishers.AssertNoFailure<Self> {
    Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
  }
}

/// The subscriber `AssertNoFailure` attaches upstream: forwards everything, traps on a
/// failure. A value type, so the stage costs no allocation.
@usableFromInline
@_eagerMove
internal struct AssertNoFailureSubscriber<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Failure == Never {
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = UpstreamFailure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let prefix: String
  @usableFromInline internal let file: StaticString
  @usableFromInline internal let line: UInt

  @inlinable
  internal init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
    self.downstream = downstream
    self.prefix = prefix
    self.file = file
    self.line = line
  }

  @inlinable
  internal var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  /// Always inlined: a one-call value path (Benchmarks/README.md, "Long pipelines", point 7).
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    switch completion {
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let error):
      let message = prefix.isEmpty ? "\(error)" : "\(prefix) \(error)"
      fatalError(message, file: file, line: line)
    }
  }

  @usableFromInline
  internal var description: String { "AssertNoFailure" }

  @usableFromInline
  internal var customMirror: Mirror {
    // As Apple's: where the assertion was written, and its prefix.
    Mirror(self, children: ["file": file, "line": line, "prefix": prefix])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
