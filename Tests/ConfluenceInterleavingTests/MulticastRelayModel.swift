/// The multicast relay's fence-free delivery count (`MulticastSubscriber`: `deliveries`,
/// `isLive`, `releaseRequested`) against a cancel from another thread, under x86-64's
/// memory model (``StoreBuffers``): the delivering thread raises the count with a plain
/// store and reads `isLive`; the canceller clears `isLive` under the lock, sets
/// `releaseRequested`, runs the process-wide barrier, and reads the count; whoever sees the
/// relay ended with no call running lets go of the downstream, once (under the lock).
///
/// Mirrors `MulticastSubscriber.receive(_:fenced:)`, `receive(completion:)`, `cancel()`,
/// `beginDelivery`, `endDelivery` and `releaseDownstream`. With `fenced` (no process-wide
/// barrier), the deliveries' accesses are sequentially consistent and the cancel skips the
/// barrier.
///
/// Checks: the downstream is never released while a call into it runs, never called after
/// it was released, released exactly when the relay ended (by the cancel or the
/// completion), and after `cancel()` returned at most the value already in flight starts.
struct MulticastRelayModel: InterleavingModel {
  /// The values the subject delivers, then (if `completes`) its completion.
  let values: Int
  let completes: Bool
  /// No process-wide barrier: deliveries use sequentially consistent accesses.
  let fenced: Bool
  /// For the record of what the checks catch: the cancel skips the barrier.
  var omitsBarrier = false

  var threadCount: Int { 2 }

  // Locations.
  static let deliveries = 0
  static let isLive = 1
  static let releaseRequested = 2

  struct State: Hashable {
    var memory = StoreBuffers(locations: [0, 1, 0], threads: 2)
    var subscribed = true
    var released = false
    var inside = 0
    var cancelReturned = false
    var startedAfterCancel = 0
    var violation: String?
    // The delivering thread: which event, where in it, its saved depth.
    var event = 0
    var pc = 0
    var depth = 0
    // The cancelling thread.
    var cancelPC = 0
  }

  var initialState: State { State() }

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    var result: [(String, State)] = []
    // The hardware draining this thread's oldest buffered store.
    if !state.memory.isDrained(thread) {
      var s = state
      s.memory.flushOldest(of: thread)
      result.append(("store reaches memory", s))
    }
    let programStep = thread == 0 ? deliver(state) : cancel(state)
    if let programStep { result.append(contentsOf: programStep) }
    if programStep == nil && state.memory.isDrained(thread) { return nil }
    return result
  }

  // MARK: The subject's thread

  /// The next step of the delivering thread: `nil` once it has nothing left to run; empty
  /// when its next step waits (a fence on an undrained buffer).
  private func deliver(_ state: State) -> [(String, State)]? {
    var s = state
    let me = 0
    let isCompletion = s.event == values
    if s.event > values || (isCompletion && !completes) { return nil }
    func fencedAccess() -> Bool { !fenced || s.memory.isDrained(me) }
    func next(_ pc: Int) { s.pc = pc }
    func nextEvent() {
      s.event += 1
      s.pc = 0
    }
    switch s.pc {
    case 0:
      if isCompletion {
        // `receive(completion:)`'s critical section (a lock drains the buffer).
        guard s.memory.isDrained(me) else { return [] }
        s.memory.storeFenced(Self.isLive, 0, by: me)
        let wasSubscribed = s.subscribed
        s.subscribed = false
        if wasSubscribed { next(1) } else { nextEvent() }
        return [("completion: isLive = false (lock)", s)]
      }
      next(1)
      return [("value \(s.event)", s)]
    case 1:
      // `beginDelivery`: read the count, store it raised.
      guard fencedAccess() else { return [] }
      s.depth = s.memory.load(Self.deliveries, by: me)
      if fenced {
        s.memory.storeFenced(Self.deliveries, s.depth + 1, by: me)
      } else {
        s.memory.store(Self.deliveries, s.depth + 1, by: me)
      }
      next(isCompletion ? 3 : 2)
      return [("deliveries = \(s.depth + 1)", s)]
    case 2:
      // A value reads `isLive`.
      guard fencedAccess() else { return [] }
      let live = s.memory.load(Self.isLive, by: me) == 1
      next(live ? 3 : 5)
      return [("isLive is \(live)", s)]
    case 3:
      if s.released { s.violation = "called the downstream after it was released" }
      if s.inside > 0 { s.violation = "two calls into the downstream at once" }
      if s.cancelReturned, !isCompletion { s.startedAfterCancel += 1 }
      if s.startedAfterCancel > 1 { s.violation = "a second value started after cancel() returned" }
      s.inside += 1
      next(4)
      return [(isCompletion ? "enter completion" : "enter value \(s.event)", s)]
    case 4:
      s.inside -= 1
      if isCompletion {
        // `releaseRequested` is set after the call (a release store).
        s.memory.store(Self.releaseRequested, 1, by: me)
      }
      next(5)
      return [("return", s)]
    case 5:
      // `endDelivery`: restore the count, then read the request.
      guard fencedAccess() else { return [] }
      if fenced {
        s.memory.storeFenced(Self.deliveries, s.depth, by: me)
      } else {
        s.memory.store(Self.deliveries, s.depth, by: me)
      }
      next(6)
      return [("deliveries = \(s.depth)", s)]
    default:
      if s.pc == 6 {
        guard fencedAccess() else { return [] }
        let requested = s.memory.load(Self.releaseRequested, by: me) == 1
        if s.depth == 0, requested {
          next(7)
        } else {
          nextEvent()
        }
        return [("releaseRequested is \(requested)", s)]
      }
      // `releaseDownstream` (a critical section).
      guard s.memory.isDrained(me) else { return [] }
      release(&s)
      nextEvent()
      return [("release the downstream (lock)", s)]
    }
  }

  // MARK: The cancelling thread

  private func cancel(_ state: State) -> [(String, State)]? {
    var s = state
    let me = 1
    switch s.cancelPC {
    case 0:
      // The critical section: `isLive` cleared, the status taken.
      guard s.memory.isDrained(me) else { return [] }
      s.memory.storeFenced(Self.isLive, 0, by: me)
      let wasSubscribed = s.subscribed
      s.subscribed = false
      s.cancelPC = wasSubscribed ? 1 : 9
      if !wasSubscribed { s.cancelReturned = true }
      return [("cancel: isLive = false (lock)", s)]
    case 1:
      // `releaseRequested`, sequentially consistent.
      guard s.memory.isDrained(me) else { return [] }
      s.memory.storeFenced(Self.releaseRequested, 1, by: me)
      s.cancelPC = fenced || omitsBarrier ? 3 : 2
      return [("releaseRequested = true", s)]
    case 2:
      // The process-wide barrier: every thread's stores have reached memory.
      guard s.memory.isDrained else { return [] }
      s.cancelPC = 3
      return [("process-wide barrier", s)]
    case 3:
      guard s.memory.isDrained(me) else { return [] }
      let running = s.memory.load(Self.deliveries, by: me)
      s.cancelPC = running == 0 ? 4 : 9
      if running != 0 { s.cancelReturned = true }
      return [("deliveries is \(running)", s)]
    case 4:
      release(&s)
      s.cancelPC = 9
      s.cancelReturned = true
      return [("release the downstream (lock)", s)]
    default:
      return nil
    }
  }

  private func release(_ s: inout State) {
    guard !s.released else { return }
    if s.inside > 0 { s.violation = "released the downstream while a call into it ran" }
    s.released = true
  }

  func violation(in state: State) -> String? { state.violation }

  func finalViolation(in state: State) -> String? {
    state.released ? nil : "the relay ended but never let go of its downstream"
  }
}
