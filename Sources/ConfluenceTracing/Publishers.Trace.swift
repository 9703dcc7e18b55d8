import Confluence

extension Publishers {
  /// A publisher that records, into a ``TraceRecorder``, everything that passes through
  /// the stage it wraps: the subscription, each request with its demand, each value, the
  /// completion and the cancel — each with its time and thread, one lane per subscription.
  ///
  /// Made by ``Confluence/Publisher/trace(_:to:)``. A subscription made while the recorder
  /// is not recording is not traced: the subscriber subscribes straight to the upstream.
  ///
  /// Back-pressure: passes requests and demand through unchanged.
  public struct Trace<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher traced.
    public let upstream: Upstream
    /// The lanes' name.
    public let name: String
    /// Where the events go.
    public let recorder: TraceRecorder

    /// Creates a traced stage.
    @inlinable
    public init(upstream: Upstream, name: String, recorder: TraceRecorder) {
      self.upstream = upstream
      self.name = name
      self.recorder = recorder
    }

    /// Subscribes `subscriber` through a recording stage if the recorder is recording;
    /// otherwise straight to the upstream, so that an idle `trace` costs nothing per value.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      guard recorder.isRecording else {
        upstream.subscribe(subscriber)
        return
      }
      subscribeRecording(subscriber)
    }

    @usableFromInline
    internal func subscribeRecording<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
      let lane = recorder.openLane(named: name)
      recorder.record(.subscribed, on: lane)
      upstream.subscribe(TraceSubscription(downstream: subscriber, recorder: recorder, lane: lane))
    }
  }
}

extension Publisher {
  /// Records what passes through this point of the pipeline into `recorder`: the
  /// subscription, each request and the demand it asks for, each value, the completion and
  /// the cancel, with time and thread, in a lane per subscription — for the subscriptions
  /// made while `recorder` is recording.
  ///
  /// ```swift
  /// TraceRecorder.shared.start()
  /// let cancellable = api.stories()
  ///   .trace("stories")
  ///   .sink { print($0) }
  /// // later
  /// TraceRecorder.shared.stop()
  /// print(TraceRecorder.shared.timeline())
  /// ```
  ///
  /// Back-pressure: passes requests and demand through unchanged. A subscription made while
  /// `recorder` is not recording skips the stage: it costs nothing per value.
  ///
  /// - Parameters:
  ///   - name: The lane's name in the trace.
  ///   - recorder: Where the events go; ``TraceRecorder/shared`` by default.
  /// - Returns: A publisher that behaves as this one and records what passes.
  @inlinable
  public consuming func trace(_ name: String, to recorder: TraceRecorder = .shared) -> Publishers.Trace<Self> {
    Publishers.Trace(upstream: self, name: name, recorder: recorder)
  }
}

/// The traced stage's subscription: records each event on its lane, then passes it on.
internal final class TraceSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: `upstream` is read and written only under `lock`; it is called,
  // like downstream, after the lock is released.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let recorder: TraceRecorder
  private let lane: TraceLane
  private let lock = Lock()
  private var upstream: Subscription?

  init(downstream: Downstream, recorder: TraceRecorder, lane: TraceLane) {
    self.downstream = downstream
    self.recorder = recorder
    self.lane = lane
  }

  var description: String { "Trace" }

  func receive(subscription: Subscription) {
    lock.withLock { upstream = subscription }
    recorder.record(.subscription(String(describing: subscription)), on: lane)
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    recorder.record(.value(TraceRecorder.describe(input)), on: lane)
    let demand = downstream.receive(input)
    if demand > 0 { recorder.record(.demandReturned(demand), on: lane) }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: recorder.record(.finished, on: lane)
    case .failure(let error): recorder.record(.failure(String(describing: error)), on: lane)
    }
    let released = lock.withLock { () -> Subscription? in
      defer { upstream = nil }
      return upstream
    }
    withExtendedLifetime(released) {}
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    recorder.record(.request(demand), on: lane)
    lock.withLock { upstream }?.request(demand)
  }

  func cancel() {
    recorder.record(.cancel, on: lane)
    let subscription = lock.withLock { () -> Subscription? in
      defer { upstream = nil }
      return upstream
    }
    subscription?.cancel()
  }
}
