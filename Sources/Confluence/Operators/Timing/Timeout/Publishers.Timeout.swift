extension Publishers {
  /// A publisher that terminates publishing if the upstream publisher exceeds the
  /// specified time interval without producing an element.
  ///
  /// ```swift
  /// let cancellable = subject
  ///   .timeout(.seconds(5), scheduler: DispatchQueue.main)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// The clock starts when the subscription arrives and restarts with every value. If it
  /// runs out, the publisher cancels upstream and finishes — or fails with
  /// `customError()` if you gave one. Values and the upstream's completion are delivered on
  /// the scheduler, in order.
  ///
  /// Back-pressure: passes downstream demand upstream synchronously; the demand
  /// downstream returns from `receive(_:)` is requested after each delivery.
  @_eagerMove
  public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum time interval the publisher can go without emitting an element,
    /// expressed in the time system of the scheduler.
    public let interval: Context.SchedulerTimeType.Stride

    /// The scheduler on which to deliver events.
    public let scheduler: Context

    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// A closure that executes if the publisher times out. The publisher sends the failure
    /// returned by this closure to the subscriber as the reason for termination.
    public let customError: (() -> Upstream.Failure)?

    /// Creates a publisher that terminates publishing if the upstream publisher exceeds the
    /// specified time interval without producing an element.
    @inlinable
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?, customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.options = options
      self.customError = customError
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        TimeoutSubscription(
          downstream: subscriber, interval: interval, scheduler: scheduler, options: options, customError: customError))
    }
  }
}

extension Publisher {
  /// Terminates publishing if the upstream publisher exceeds the specified time interval
  /// without producing an element.
  ///
  /// Use `timeout(_:scheduler:options:customError:)` to terminate a publisher if an
  /// element isn’t delivered within a timeout interval you specify:
  ///
  /// ```swift
  /// let subject = PassthroughSubject<String, Never>()
  /// let cancellable = subject
  ///   .timeout(.seconds(5), scheduler: DispatchQueue.main, options: nil, customError: nil)
  ///   .sink(
  ///     receiveCompletion: { print("completion: \($0) at \(Date())") },
  ///     receiveValue: { print("value: \($0) at \(Date())") })
  /// DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(2)) { subject.send("Some data") }
  /// // Prints: value: Some data at 2020-03-10 23:47:59 +0000
  /// //         completion: finished at 2020-03-10 23:48:04 +0000
  /// ```
  ///
  /// If `customError` is `nil`, the publisher completes normally; if you provide a closure,
  /// its error is sent downstream as a failure. Back-pressure: demand passes upstream
  /// unchanged.
  ///
  /// - Parameters:
  ///   - interval: The maximum time interval the publisher can go without emitting an
  ///     element, expressed in the time system of the scheduler.
  ///   - scheduler: The scheduler to deliver events on.
  ///   - options: Scheduler options that customize the delivery of elements.
  ///   - customError: A closure that executes if the publisher times out. The publisher
  ///     sends the failure returned by this closure to the subscriber as the reason for
  ///     termination.
  /// - Returns: A publisher that terminates if the specified interval elapses with no
  ///   events received from the upstream publisher.
  @inlinable
  public consuming func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> Self.Failure)? = nil
  ) -> Publishers.Timeout<Self, S> {
    Publishers.Timeout(
      upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
  }
}
