import Confluence
import Foundation

/// Records the events of traced pipelines into a ring buffer of fixed size, and writes them
/// out as Chrome/Perfetto trace-event JSON or as a timeline for the terminal.
///
/// Two ways to feed it:
///
/// - `publisher.trace("name")` records the one stage it wraps, into ``shared`` (or the
///   recorder given), while that recorder is recording;
/// - ``start(everySubscription:)`` with `true` records every subscription of every pipeline
///   made while it records — without changing their code — through the `_Introspection`
///   hook Apple's Combine also has.
///
/// ```swift
/// let recorder = TraceRecorder()
/// recorder.start(everySubscription: true)
/// let values = [1, 2, 3].publisher.map { $0 * 2 }.sink { print($0) }
/// recorder.stop()
/// try recorder.writeChromeTrace(toFile: "pipeline.json")   // open in ui.perfetto.dev
/// print(recorder.timeline())
/// ```
///
/// Memory: at most ``capacity`` events are kept (65,536 by default, a few megabytes); when
/// it is full, each new event replaces the oldest, and ``droppedEventCount`` says how many
/// went. Value descriptions are cut to ``valueDescriptionLimit`` characters.
///
/// Cost: pipelines without `trace` are untouched by this module, and a `trace` stage
/// subscribed while its recorder is not recording steps aside — its subscriber subscribes
/// straight to the upstream — so it costs nothing per value. Every method may be called
/// from any thread.
public final class TraceRecorder: @unchecked Sendable {
  // @unchecked Sendable: `state` is read and written only under `lock`.

  /// The recorder `trace(_:)` uses when given none.
  public static let shared = TraceRecorder()

  /// The default ring buffer size, in events.
  public static let defaultCapacity = 65_536

  /// How many characters of a value's description are kept.
  public static let valueDescriptionLimit = 80

  /// The most events kept.
  public let capacity: Int

  private struct State {
    var ring: [TraceEvent] = []
    /// Where the next event goes once the ring is full.
    var head = 0
    var sequence = 0
    var dropped = 0
    var nextLane = 1
    var threads: [UInt: Int] = [:]
    var origin = ContinuousClock.now
    var introspection: TraceIntrospection?
    /// Whether the recorder records. Under the lock like the rest: recording has no
    /// benchmark row, so an atomic flag read before the lock would save nothing measured
    /// (ARCHITECTURE.md, "Lock-free protocols").
    var isOn = false
  }

  private let lock = Lock()
  private var state = State()

  /// Creates a recorder that keeps at most `capacity` events.
  ///
  /// - Precondition: `capacity` is at least 1.
  public init(capacity: Int = TraceRecorder.defaultCapacity) {
    confluencePrecondition(
      capacity > 0, "TraceRecorder(capacity:) was called with capacity \(capacity); it needs at least 1")
    self.capacity = capacity
  }

  // MARK: Recording

  /// Whether events are being recorded.
  @inlinable
  public var isRecording: Bool { readIsRecording() }

  /// ``isRecording``, read under the lock.
  @usableFromInline
  internal func readIsRecording() -> Bool {
    lock.withLock { state.isOn }
  }

  /// Clears what was recorded and starts recording.
  ///
  /// - Parameter everySubscription: Also record every subscription of every pipeline, each
  ///   in its own lane named after its publisher's type, until ``stop()``.
  public func start(everySubscription: Bool = false) {
    let introspection = everySubscription ? TraceIntrospection(recorder: self) : nil
    let previous = lock.withLock { () -> TraceIntrospection? in
      let previous = state.introspection
      state = State()
      state.introspection = introspection
      return previous
    }
    previous?.disable()
    lock.withLock { state.isOn = true }
    introspection?.enable()
  }

  /// Stops recording; what was recorded stays until the next ``start(everySubscription:)``.
  public func stop() {
    let introspection = lock.withLock { () -> TraceIntrospection? in
      state.isOn = false
      defer { state.introspection = nil }
      return state.introspection
    }
    introspection?.disable()
  }

  /// A new lane for one subscription.
  public func openLane(named name: String) -> TraceLane {
    lock.withLock {
      defer { state.nextLane += 1 }
      return TraceLane(id: state.nextLane, name: name)
    }
  }

  /// Records `kind` on `lane`, now, on the calling thread — if recording.
  public func record(_ kind: @autoclosure () -> TraceEvent.Kind, on lane: TraceLane) {
    // The kind is made (it may describe a value: user code) outside the lock.
    guard lock.withLock({ state.isOn }) else { return }
    let kind = kind()
    let now = ContinuousClock.now
    let thread = Self.currentThreadKey()
    lock.withLock {
      let threadNumber: Int
      if let known = state.threads[thread] {
        threadNumber = known
      } else {
        threadNumber = state.threads.count + 1
        state.threads[thread] = threadNumber
      }
      let event = TraceEvent(
        sequence: state.sequence, time: now - state.origin, thread: threadNumber, lane: lane.id, laneName: lane.name,
        kind: kind)
      state.sequence += 1
      if state.ring.count < capacity {
        state.ring.append(event)
      } else {
        state.ring[state.head] = event
        state.head = (state.head + 1) % capacity
        state.dropped += 1
      }
    }
  }

  /// The calling thread's identity (its `pthread_t`).
  private static func currentThreadKey() -> UInt {
    #if canImport(Glibc)
      return UInt(pthread_self())
    #else
      return UInt(bitPattern: pthread_self())
    #endif
  }

  // MARK: What was recorded

  /// The events kept, oldest first.
  public var events: [TraceEvent] {
    lock.withLock { Array(state.ring[state.head...] + state.ring[..<state.head]) }
  }

  /// How many events were dropped to make room (the oldest go first).
  public var droppedEventCount: Int { lock.withLock { state.dropped } }

  /// Describes a value for a ``TraceEvent/Kind/value(_:)`` event, cut to the limit.
  internal static func describe<Value>(_ value: Value) -> String {
    let text = String(describing: value)
    guard text.count > valueDescriptionLimit else { return text }
    return String(text.prefix(valueDescriptionLimit - 1)) + "…"
  }
}
