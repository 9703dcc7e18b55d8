#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

extension Publishers {
  /// A publisher that raises a debugger signal when a provided closure needs to stop the
  /// process in the debugger.
  ///
  /// When any of the provided closures returns `true`, this publisher raises the `SIGTRAP`
  /// signal to stop the process in the debugger. Otherwise, this publisher passes through
  /// values and completions as-is. Each closure runs before the event is passed on.
  ///
  /// ```swift
  /// let cancellable = numbers
  ///   .breakpoint(receiveOutput: { value in
  ///     value > 10 && value < 15   // values 11 to 14 should never happen
  ///   })
  ///   .sink { print($0) }
  /// ```
  ///
  /// Without a debugger attached, `SIGTRAP` ends the process (unless the process handles
  /// the signal).
  ///
  /// Back-pressure: passes demand through unchanged. Downstream receives the `Breakpoint`
  /// subscription.
  @_eagerMove
  public struct Breakpoint<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that executes when the publisher receives a subscription, and can raise a
    /// debugger signal by returning a true Boolean value.
    public let receiveSubscription: ((Subscription) -> Bool)?

    /// A closure that executes when the publisher receives output from the upstream
    /// publisher, and can raise a debugger signal by returning a true Boolean value.
    public let receiveOutput: ((Upstream.Output) -> Bool)?

    /// A closure that executes when the publisher receives completion, and can raise a
    /// debugger signal by returning a true Boolean value.
    public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

    /// Creates a breakpoint publisher with the provided upstream publisher and
    /// breakpoint-raising closures.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - receiveSubscription: A closure that executes when the publisher receives a
    ///     subscription, and can raise a debugger signal by returning a true Boolean value.
    ///   - receiveOutput: A closure that executes when the publisher receives output from
    ///     the upstream publisher, and can raise a debugger signal by returning a true
    ///     Boolean value.
    ///   - receiveCompletion: A closure that executes when the publisher receives
    ///     completion, and can raise a debugger signal by returning a true Boolean value.
    @inlinable
    public init(
      upstream: Upstream,
      receiveSubscription: ((Subscription) -> Bool)? = nil,
      receiveOutput: ((Upstream.Output) -> Bool)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        BreakpointSubscriber(
          downstream: subscriber, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
          receiveCompletion: receiveCompletion))
    }
  }
}

extension Publisher {
  /// Raises a debugger signal when a provided closure needs to stop the process in the
  /// debugger.
  ///
  /// Use `breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)` to examine one
  /// or more stages of the subscribe/publish/completion process and stop in the debugger,
  /// based on the closures' results. When any of the closures returns `true`, this
  /// operator raises `SIGTRAP`; otherwise it passes every event on unchanged.
  ///
  /// ```swift
  /// let publisher = PassthroughSubject<String?, Never>()
  /// cancellable = publisher
  ///   .breakpoint(receiveOutput: { value in
  ///     value == "DEBUGGER"
  ///   })
  ///   .sink { print("\(String(describing: $0))", terminator: " ") }
  ///
  /// publisher.send("DEBUGGER")   // stops in the debugger
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameters:
  ///   - receiveSubscription: A closure that executes when the publisher receives a
  ///     subscription. Return `true` from this closure to raise `SIGTRAP`, or `false` to
  ///     continue.
  ///   - receiveOutput: A closure that executes when the publisher receives a value.
  ///     Return `true` from this closure to raise `SIGTRAP`, or `false` to continue.
  ///   - receiveCompletion: A closure that executes when the publisher receives a
  ///     completion. Return `true` from this closure to raise `SIGTRAP`, or `false` to
  ///     continue.
  /// - Returns: A publisher that raises a debugger signal when one of the provided
  ///   closures returns `true`.
  @inlinable
  public consuming func breakpoint(
    receiveSubscription: ((Subscription) -> Bool)? = nil,
    receiveOutput: ((Output) -> Bool)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
  ) -> Publishers.Breakpoint<Self> {
    Publishers.Breakpoint(
      upstream: self,
      receiveSubscription: receiveSubscription,
      receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion)
  }

  /// Raises a debugger signal upon receiving a failure.
  ///
  /// When the upstream publisher fails with an error, this publisher raises the `SIGTRAP`
  /// signal, which stops the process in the debugger. Values and a normal completion pass
  /// through unchanged.
  ///
  /// ```swift
  /// let cancellable = publisher
  ///   .breakpointOnError()
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Returns: A publisher that raises a debugger signal upon receiving a failure.
  @inlinable
  public consuming func breakpointOnError() -> Publishers.Breakpoint<Self> {
    breakpoint(receiveCompletion: { completion in
      if case .failure = completion { return true }
      return false
    })
  }
}

/// Raises `SIGTRAP`, which stops the process in an attached debugger.
///
/// Kept out of line: it is the cold path of `Breakpoint`.
@usableFromInline
internal func raiseDebuggerSignal() {
  _ = raise(SIGTRAP)
}

/// What `Breakpoint` subscribes upstream: a relay, as Apple's is. Every event — each
/// subscription (handed straight downstream), value and completion, however many and in
/// whatever order upstream sends them — is shown to its closure and then passed on; a
/// closure that returns `true` raises `SIGTRAP` first. No state, no lock. Shown as
/// "Breakpoint" with an empty mirror.
@usableFromInline
internal final class BreakpointSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let receiveSubscription: ((Subscription) -> Bool)?
  @usableFromInline internal let receiveOutput: ((Input) -> Bool)?
  @usableFromInline internal let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

  @inlinable
  internal init(
    downstream: Downstream,
    receiveSubscription: ((Subscription) -> Bool)?,
    receiveOutput: ((Input) -> Bool)?,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?
  ) {
    self.downstream = downstream
    self.receiveSubscription = receiveSubscription
    self.receiveOutput = receiveOutput
    self.receiveCompletion = receiveCompletion
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    if receiveSubscription?(subscription) == true {
      raiseDebuggerSignal()
    }
    downstream.receive(subscription: subscription)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // Read before `receiveOutput` runs (Benchmarks/README.md, "Long pipelines", point 10).
    let next = downstream
    if receiveOutput?(input) == true {
      raiseDebuggerSignal()
    }
    return next.receive(input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    if receiveCompletion?(completion) == true {
      raiseDebuggerSignal()
    }
    downstream.receive(completion: completion)
  }

  @usableFromInline
  internal var description: String { "Breakpoint" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
