/// The state of one `collect(.byTime…)` / `collect(.byTimeOrCount…)` subscription, guarded
/// by its lock. Pure bookkeeping: each transition returns what ``CollectByTimeSubscription``
/// must do once the lock is released.
///
/// Rules (Apple's documentation and recorded behaviour):
/// - upstream is asked for unlimited values; they are buffered;
/// - each tick of a repeating timer publishes the buffer as one batch if downstream has
///   demand; with a count, a full buffer publishes its first `count` values at once;
/// - `.finished` publishes what is buffered (if downstream has demand) and then finishes; a
///   failure drops the buffer;
/// - full batches come from upstream's thread and timed ones from the scheduler's, so one
///   thread at a time delivers: a thread that finds delivery taken leaves a note
///   (`pendingPublish`), and the delivering thread publishes again, and sends a completion
///   that arrived meanwhile, once downstream's `receive` returned;
/// - cancel and completion stop the timer and drop the buffer and the downstream.
@usableFromInline
internal struct CollectByTimeStateMachine<Input, Downstream: Subscriber> where Downstream.Input == [Input] {
  @usableFromInline internal typealias Failure = Downstream.Failure

  /// What the publishing thread does next.
  @usableFromInline
  internal enum PublishAction {
    case none
    /// Hand this batch to downstream (delivery is now owned by the caller).
    case deliver(Downstream, [Input])
  }

  /// What the delivering thread does after handing over a batch.
  @usableFromInline
  internal enum AfterDelivery {
    case done
    case publishAgain(onlyIfFull: Bool)
    /// A completion arrived during the delivery: send the last batch (if any), then it.
    case complete(Subscribers.Completion<Failure>, last: [Input])
  }

  /// What to do with upstream's completion.
  @usableFromInline
  internal enum CompletionAction {
    case ignore
    /// Another thread is delivering and sends the completion; only stop the timer.
    case stopTimer(Cancellable?)
    /// Stop the timer, then send the last batch (if any) and the completion.
    case finish(Downstream, last: [Input], timer: Cancellable?)
  }

  /// What a cancel lets go of.
  @usableFromInline
  internal struct Released {
    @usableFromInline internal var upstream: Subscription?
    @usableFromInline internal var timer: Cancellable?
    /// Released after the lock, outside it.
    @usableFromInline internal var downstream: Downstream?

    @inlinable
    internal init(upstream: Subscription?, timer: Cancellable?, downstream: Downstream?) {
      self.upstream = upstream
      self.timer = timer
      self.downstream = downstream
    }
  }

  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var buffer: [Input] = []
  @usableFromInline internal var timer: Cancellable?
  /// Whether a thread is inside downstream's `receive` right now.
  @usableFromInline internal var isDelivering = false
  /// A publish that found delivery taken (`true`: only if the buffer is full).
  @usableFromInline internal var pendingPublish: Bool?
  /// A completion that arrived while a batch was being delivered.
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Failure>?
  /// Downstream cancelled; checked before a completion that follows a last batch, since
  /// downstream may cancel inside that batch's `receive`.
  @usableFromInline internal var isCancelled = false
  @usableFromInline internal let maximumCount: Int

  @inlinable
  internal init(downstream: Downstream, maximumCount: Int) {
    self.downstream = downstream
    self.maximumCount = maximumCount
  }

  /// Upstream's subscription arrived: the downstream to hand ours to, or `nil` to cancel it.
  @inlinable
  internal mutating func upstreamSubscribed(_ subscription: Subscription) -> Downstream? {
    guard status.accept(subscription) else { return nil }
    return downstream
  }

  /// The repeating timer was scheduled: whether to keep it (`false`: cancel it, the
  /// subscription ended meanwhile).
  @inlinable
  internal mutating func timerScheduled(_ repeating: Cancellable) -> Bool {
    guard status.isSubscribed else { return false }
    timer = repeating
    return true
  }

  /// Buffers a value; returns whether the buffer is now full.
  @inlinable
  internal mutating func valueArrived(_ input: Input) -> Bool {
    guard status.isSubscribed else { return false }
    buffer.append(input)
    return buffer.count >= maximumCount
  }

  @inlinable
  internal mutating func nextBatch(onlyIfFull: Bool) -> PublishAction {
    guard status.isSubscribed, let downstream else { return .none }
    if isDelivering {
      pendingPublish = pendingPublish.map { $0 && onlyIfFull } ?? onlyIfFull
      return .none
    }
    guard demand > 0, !buffer.isEmpty else { return .none }
    if onlyIfFull && buffer.count < maximumCount { return .none }
    let batch: [Input]
    if buffer.count > maximumCount {
      batch = Array(buffer.prefix(maximumCount))
      buffer.removeFirst(maximumCount)
    } else {
      batch = buffer
      buffer = []
    }
    demand -= 1
    isDelivering = true
    return .deliver(downstream, batch)
  }

  @inlinable
  internal mutating func batchDelivered(more: Subscribers.Demand) -> AfterDelivery {
    isDelivering = false
    if let completion = pendingCompletion {
      pendingCompletion = nil
      var last: [Input] = []
      if case .finished = completion, demand + more > 0 { last = buffer }
      buffer = []
      downstream = nil
      return .complete(completion, last: last)
    }
    demand += more
    if let pending = pendingPublish {
      pendingPublish = nil
      return .publishAgain(onlyIfFull: pending)
    }
    return buffer.count >= maximumCount && demand > 0 ? .publishAgain(onlyIfFull: true) : .done
  }

  @inlinable
  internal mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard status.terminate() != nil, let downstream else { return .ignore }
    let stopping = timer.take()
    if isDelivering {
      pendingCompletion = completion
      return .stopTimer(stopping)
    }
    var last: [Input] = []
    if case .finished = completion, demand > 0 { last = buffer }
    self.downstream = nil
    buffer = []
    return .finish(downstream, last: last, timer: stopping)
  }

  /// Downstream asked for more: whether a full buffer is waiting to be published.
  @inlinable
  internal mutating func downstreamRequested(_ demand: Subscribers.Demand) -> Bool {
    self.demand += demand
    return buffer.count >= maximumCount
  }

  @inlinable
  internal mutating func cancelled() -> Released {
    defer {
      downstream = nil
      buffer = []
      isCancelled = true
    }
    return Released(upstream: status.terminate(), timer: timer.take(), downstream: downstream)
  }
}
