/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
///
/// `Record` works like ``Publishers/Sequence`` followed by a completion of your choice,
/// which may be a failure. It replays its ``recording`` to every subscriber:
///
/// ```swift
/// let recorded = Record<String, Never> { recording in
///   recording.receive("one")
///   recording.receive("two")
///   recording.receive(completion: .finished)
/// }
/// let cancellable = recorded.sink { print($0) }   // one, two
/// ```
///
/// A record is `Codable` when its output and failure types are, so recordings can be
/// saved and replayed, for example as test fixtures.
///
/// Each subscriber receives a subscription described by the recorded values (`[1, 2]`, what
/// `print` shows), and as `Cancelled Events` once it has finished or been cancelled. An
/// empty recording sends ``Subscriptions/empty`` and its completion at once. A request for
/// `.none` is ignored.
///
/// Back-pressure: emits exactly as many values as requested, and sends the completion
/// as soon as the last value has been delivered, without waiting for further demand.
@_eagerMove
public struct Record<Output, Failure: Error>: Publisher {
  /// The recorded output and completion.
  public let recording: Recording

  /// Creates a publisher to interactively record a series of outputs and a completion.
  ///
  /// The closure runs once, before the initializer returns. If it records no completion,
  /// the recording finishes normally.
  ///
  /// ```swift
  /// let record = Record<Int, TestError> { $0.receive(1); $0.receive(completion: .failure(TestError())) }
  /// ```
  ///
  /// - Parameter record: A closure that records outputs and a completion into the
  ///   recording it is given.
  @inlinable
  public init(record: (inout Recording) -> Void) {
    var recording = Recording()
    record(&recording)
    self.init(recording: recording)
  }

  /// Creates a record publisher from an existing recording.
  ///
  /// ```swift
  /// let record = Record(recording: Record<Int, Never>.Recording(output: [1, 2]))
  /// ```
  ///
  /// - Parameter recording: A previously-recorded recording of published elements and a
  ///   completion.
  @inlinable
  public init(recording: Recording) {
    self.recording = recording
  }

  /// Creates a record publisher to publish the provided elements, followed by the
  /// provided completion value.
  ///
  /// ```swift
  /// let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
  /// ```
  ///
  /// - Parameters:
  ///   - output: An array of output elements to publish.
  ///   - completion: The completion value with which to end publishing.
  @inlinable
  public init(output: [Output], completion: Subscribers.Completion<Failure>) {
    self.init(recording: Recording(output: output, completion: completion))
  }

  /// Replays the recording to `subscriber` as it requests values.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    guard !recording.output.isEmpty else {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: recording.completion)
      return
    }
    subscriber.receive(
      subscription: RecordSubscription(
        output: recording.output, completion: recording.completion, downstream: subscriber))
  }
}

extension Record: Sendable where Output: Sendable, Failure: Sendable {}

/// The keys of an encoded ``Record``.
private enum RecordCodingKeys: String, CodingKey {
  case recording
}

extension Record: Codable where Output: Codable, Failure: Codable {
  /// Creates a record from a decoder: the keyed value `recording`.
  ///
  /// - Parameter decoder: The decoder to read data from.
  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: RecordCodingKeys.self)
    self.init(recording: try container.decode(Recording.self, forKey: .recording))
  }

  /// Encodes the record as the keyed value `recording`.
  ///
  /// - Parameter encoder: The encoder to write data to.
  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: RecordCodingKeys.self)
    try container.encode(recording, forKey: .recording)
  }
}

/// The subscription of ``Record``: replays the recorded values on demand, then the
/// recorded completion.
///
/// One thread at a time emits (`isEmitting`, claimed under the lock); `index` belongs to
/// that thread. Requests that arrive meanwhile, or re-entrantly from `receive(_:)`, only
/// add demand, which the emitting thread picks up.
@usableFromInline
internal final class RecordSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal let lock = Lock()

  // Guarded by `lock` (`@exclusivity(unchecked)`: the lock already serialises every access,
  // and the emitting loop reads `downstream` for each value).
  @exclusivity(unchecked) @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var isEmitting = false

  /// The next value to send; touched only by the emitting thread.
  @usableFromInline internal var index = 0

  @usableFromInline internal let output: [Downstream.Input]
  @usableFromInline internal let completion: Subscribers.Completion<Downstream.Failure>

  /// `request(_:)` and `cancel()` arrive through `any Subscription`, which runs this
  /// generic class's unspecialised code (the whole replay loop, through value witnesses).
  /// This closure, formed in `init` (specialised by the client), runs
  /// ``requestSpecialized(_:)`` (demand non-zero) or ``cancelSpecialized()`` (`.none`)
  /// specialised. It captures nothing, so it costs no allocation.
  @usableFromInline
  internal let specialized: (RecordSubscription, Subscribers.Demand) -> Void

  @inlinable
  internal init(
    output: [Downstream.Input], completion: Subscribers.Completion<Downstream.Failure>, downstream: Downstream
  ) {
    self.output = output
    self.completion = completion
    self.downstream = downstream
    self.specialized = { subscription, demand in
      if demand == .none {
        subscription.cancelSpecialized()
      } else {
        subscription.requestSpecialized(demand)
      }
    }
  }

  /// Apple's record subscription ignores a request for `.none` rather than trapping.
  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    guard demand != .none else { return }
    specialized(self, demand)
  }

  @inlinable
  internal func cancel() {
    specialized(self, .none)
  }

  @inlinable
  internal func requestSpecialized(_ demand: Subscribers.Demand) {
    let claim = lock.withLock { () -> Downstream? in
      guard let downstream else { return nil }
      self.demand += demand
      if isEmitting { return nil }
      isEmitting = true
      return downstream
    }
    if let claim {
      emit(to: claim)
    }
  }

  /// Emits while there is demand. Called with `isEmitting` set by this thread.
  @inlinable
  internal func emit(to downstream: Downstream) {
    var budget = lock.withLock { () -> Subscribers.Demand in
      defer { demand = .none }
      return demand
    }
    while true {
      while budget > 0, index < output.count {
        // `cancel()` lets go of `downstream`: checked under the lock for each value.
        if lock.withLock({ self.downstream == nil }) { return }
        let value = output[index]
        index += 1
        budget -= 1
        budget += downstream.receive(value)
      }
      if index == output.count {
        let finishes = lock.withLock { () -> Bool in
          isEmitting = false
          guard self.downstream != nil else { return false }
          self.downstream = nil
          return true
        }
        if finishes {
          downstream.receive(completion: completion)
        }
        return
      }
      // Out of budget: take what was requested meanwhile, or stop until the next request.
      let more = lock.withLock { () -> Subscribers.Demand? in
        let more = self.demand
        self.demand = .none
        if self.downstream == nil || more == .none {
          isEmitting = false
          return nil
        }
        return more
      }
      guard let more else { return }
      budget = more
    }
  }

  @inlinable
  internal func cancelSpecialized() {
    let released = lock.withLock { () -> Downstream? in
      defer { downstream = nil }
      return downstream
    }
    _ = released  // released outside the lock
  }

  /// Whether the subscription has finished or been cancelled.
  @usableFromInline
  internal var isTerminated: Bool {
    lock.withLock { downstream == nil }
  }

  /// The recorded values (`[1, 2, 3]`) while the subscription runs; `Cancelled Events`
  /// once it has finished or been cancelled (Apple's).
  @usableFromInline
  internal var description: String {
    isTerminated ? "Cancelled Events" : String(describing: output)
  }

  /// `sequence` (the recorded values, empty once finished or cancelled) and `completion`,
  /// as Apple's.
  @usableFromInline
  internal var customMirror: Mirror {
    let sequence = isTerminated ? [] : output
    return Mirror(self, children: ["sequence": sequence, "completion": completion])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
