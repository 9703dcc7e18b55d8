import Confluence

extension Publishers {
  /// A publisher that resubscribes to a failed upstream after a delay on a scheduler — with
  /// exponential backoff, or any delay schedule you give it.
  ///
  /// Values and a `.finished` completion pass through. When upstream fails and retries are
  /// left, `DelayedRetry` waits `delay(n)` on `scheduler` before the *n*-th retry (*n* counts
  /// from 1), then subscribes to upstream again; when the retries are used up, the last
  /// failure goes downstream. Retries are counted over the subscription's whole life, not
  /// reset by values.
  ///
  /// ```swift
  /// let cancellable = api.story(id: 1000)
  ///   .retry(3, initialDelay: .seconds(1), scheduler: DispatchQueue.main)
  ///   // attempts at 0 s, 1 s, 3 s and 7 s; the fourth failure is passed on
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: passes demand to upstream. Each new attempt is asked for the demand
  /// downstream requested and has not yet received, including demand requested while
  /// waiting. Nothing is buffered.
  ///
  /// Threading: resubscription happens on `scheduler`. `request(_:)` and `cancel()` may come
  /// from any thread. Cancel while waiting releases downstream at once; the scheduled
  /// resubscription then finds nothing to do (the scheduler keeps the small subscription
  /// object until it runs, as with `delay`).
  public struct DelayedRetry<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher to subscribe to, and resubscribe to after failures.
    public let upstream: Upstream

    /// The most times to resubscribe after a failure.
    public let retries: Int

    /// How long to wait before the *n*-th retry (`n` counts from 1).
    public let delay: (_ retry: Int) -> Context.SchedulerTimeType.Stride

    /// The scheduler that times the waits and performs the resubscriptions.
    public let scheduler: Context

    /// Options for `scheduler`.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that resubscribes to a failed `upstream` after `delay(n)`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher to subscribe to.
    ///   - retries: The most times to resubscribe; zero or more.
    ///   - delay: How long to wait before the *n*-th retry (`n` counts from 1). Called once
    ///     per retry, outside any lock.
    ///   - scheduler: The scheduler that times the waits and performs the resubscriptions.
    ///   - options: Options for `scheduler`.
    @inlinable
    public init(
      upstream: Upstream, retries: Int, delay: @escaping (_ retry: Int) -> Context.SchedulerTimeType.Stride,
      scheduler: Context, options: Context.SchedulerOptions? = nil
    ) {
      confluencePrecondition(retries >= 0, "retry: the number of retries must not be negative (got \(retries))")
      self.upstream = upstream
      self.retries = retries
      self.delay = delay
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      DelayedRetrySubscription(
        upstream: upstream, retries: retries, delay: delay, scheduler: scheduler, options: options,
        downstream: subscriber
      ).subscribeUpstream()
    }
  }
}

extension Publisher {
  /// Resubscribes to this publisher after a failure, waiting longer before each retry:
  /// `initialDelay`, then `initialDelay × multiplier`, `initialDelay × multiplier²`, …
  /// (exponential backoff), never more than `maxDelay`.
  ///
  /// ```swift
  /// let cancellable = fetchFeed()
  ///   .retry(4, initialDelay: .milliseconds(500), maxDelay: .seconds(2), scheduler: DispatchQueue.main)
  ///   // retries after 0.5 s, 1 s, 2 s and 2 s
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
  /// ```
  ///
  /// The multiplier is a whole number because a scheduler's stride can only be added, not
  /// scaled by a fraction, in generic code; for other schedules (a factor of 1.5, jitter)
  /// use ``retry(_:delay:scheduler:options:)`` with a closure.
  ///
  /// Back-pressure: each attempt is asked for the demand downstream still has outstanding;
  /// see ``Publishers/DelayedRetry``.
  ///
  /// - Parameters:
  ///   - retries: The most times to resubscribe after a failure; zero or more.
  ///   - initialDelay: The wait before the first retry; zero or more.
  ///   - multiplier: What each wait is multiplied by for the next; 1 or more. 2 doubles
  ///     it; 1 keeps the delay constant.
  ///   - maxDelay: The longest wait, if any. Without it the delay keeps growing, and a very
  ///     large number of retries can overflow the scheduler's stride.
  ///   - scheduler: The scheduler that times the waits and performs the resubscriptions.
  ///   - options: Options for `scheduler`.
  /// - Returns: A publisher that retries this one with exponential backoff.
  @inlinable
  public consuming func retry<S: Scheduler>(
    _ retries: Int, initialDelay: S.SchedulerTimeType.Stride, multiplier: Int = 2,
    maxDelay: S.SchedulerTimeType.Stride? = nil, scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.DelayedRetry<Self, S> {
    confluencePrecondition(multiplier >= 1, "retry: the backoff multiplier must be at least 1 (got \(multiplier))")
    confluencePrecondition(initialDelay >= .zero, "retry: the initial delay must not be negative")
    return Publishers.DelayedRetry(
      upstream: self, retries: retries,
      delay: { retry in backoffDelay(retry: retry, initial: initialDelay, multiplier: multiplier, cap: maxDelay) },
      scheduler: scheduler, options: options)
  }

  /// Resubscribes to this publisher after a failure, waiting `delay(n)` before the *n*-th
  /// retry.
  ///
  /// ```swift
  /// let cancellable = upload
  ///   .retry(5, delay: { retry in .milliseconds(100 * retry * retry) }, scheduler: queue)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// ```
  ///
  /// Back-pressure: each attempt is asked for the demand downstream still has outstanding;
  /// see ``Publishers/DelayedRetry``.
  ///
  /// - Parameters:
  ///   - retries: The most times to resubscribe after a failure; zero or more.
  ///   - delay: How long to wait before the *n*-th retry (`n` counts from 1).
  ///   - scheduler: The scheduler that times the waits and performs the resubscriptions.
  ///   - options: Options for `scheduler`.
  /// - Returns: A publisher that retries this one after the delays `delay` gives.
  @inlinable
  public consuming func retry<S: Scheduler>(
    _ retries: Int, delay: @escaping (_ retry: Int) -> S.SchedulerTimeType.Stride, scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.DelayedRetry<Self, S> {
    Publishers.DelayedRetry(upstream: self, retries: retries, delay: delay, scheduler: scheduler, options: options)
  }
}

/// `initial × multiplier^(retry − 1)`, at most `cap`, computed by repeated addition: a
/// generic stride can be added exactly, while its `*` (a `SignedNumeric` requirement) means
/// different things for different schedulers' strides.
@inlinable
internal func backoffDelay<Stride: Comparable & AdditiveArithmetic>(
  retry: Int, initial: Stride, multiplier: Int, cap: Stride?
) -> Stride {
  var delay = initial
  var step = 1
  while step < retry {
    if let cap, delay >= cap { return cap }
    let current = delay
    for _ in 1..<multiplier { delay += current }
    step += 1
  }
  if let cap, delay > cap { return cap }
  return delay
}
