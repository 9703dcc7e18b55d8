/// The sink's delivery gate (`DeliveryGate`) under x86-64's memory model
/// (``StoreBuffers``): deliveries from upstream (on one thread, or handed from one thread to
/// another as a serial queue moves between worker threads), a completion from upstream, and
/// a cancel — from another thread, or from inside a value's delivery.
///
/// Mirrors `DeliveryGate.deliver` (the owner's plain-store path, `deliverFenced`:
/// `claim`, `beginFenced`, `endFenced`), `endOwnersDelivery`, `endFromUpstream`,
/// `deliverLast`, `endForCancel`, `settle` (with the process-wide barrier), and
/// `takeReleaseDuty`, as `Subscribers.Sink.receive(_:)`, `receive(completion:)` and
/// `cancel()` use them. `owner` and `depth` are the two locations; the lock the sink takes
/// around `endFromUpstream`/`endForCancel` drains the buffer (a locked instruction).
///
/// Checks: the closures are never released while a call into them runs, never called after
/// they were released, released exactly once once the gate ended; after `cancel()` returned
/// at most the value already in flight starts; one completion, no value after it.
struct DeliveryGateModel: InterleavingModel {
  /// Values delivered by the first upstream thread.
  let valuesOnFirstThread: [Int]
  /// Values delivered afterwards by a second upstream thread (the first hands over to it).
  let valuesOnSecondThread: [Int]
  /// Upstream completes after its values.
  let completes: Bool
  /// Another thread cancels.
  let cancelsFromAnotherThread: Bool
  /// The first thread's delivery of this value cancels from inside it.
  let cancelsFromInside: Int?
  /// Whether the process-wide barrier exists (else every delivery takes the fenced path).
  var barrierAvailable = true
  /// For the record of what the checks catch: `settle` skips the barrier.
  var omitsBarrier = false
  /// The first thread owns the gate from the start, as when the sink's subscription
  /// arrived on it (`Sink.receive(subscription:)` claims the gate with a plain store under
  /// its lock, whose release makes the store visible before any other thread's step).
  var claimedAtSubscription = false

  static let owner = 0
  static let depth = 1
  static let noOwner = 0
  static let ended = 1
  static let released = 2

  var threadCount: Int { 3 }

  /// Where a thread is. Delivery: `pc` inside `deliver`; `outer` the depth it read.
  struct Local: Hashable {
    var event = 0
    var pc = 0
    var outer = 0
    var path = 0  // 0 owner, 1 claimed, 2 fenced, 3 skipped
    var due = false
    var ending = 0  // 0 alreadyEnded, 1 releaseDuty, 2 deliveryReleases, 3 settle
    var previous = 0
    /// A cancel made from inside a delivery, in progress (its own pc).
    var nestedCancel = -1
  }

  struct State: Hashable {
    var memory = StoreBuffers(locations: [0, 0], threads: 3)
    var threads = [Local(), Local(), Local()]
    var inside = 0
    var released = 0
    var completions = 0
    var ended = false
    var cancelReturned = false
    var insideCancelDone = false
    var startedAfterCancel = 0
    var violation: String?
  }

  var initialState: State {
    var state = State()
    if claimedAtSubscription { state.memory = StoreBuffers(locations: [Self.token(0), 0], threads: 3) }
    return state
  }

  static func token(_ thread: Int) -> Int { 10 + thread }
  static func isEnded(_ owner: Int) -> Bool { owner == ended || owner == released }

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    var result: [(String, State)] = []
    if !state.memory.isDrained(thread) {
      var s = state
      s.memory.flushOldest(of: thread)
      result.append(("store reaches memory", s))
    }
    let program: [(String, State)]?
    switch thread {
    case 0:
      program = upstream(0, values: valuesOnFirstThread, completing: completes && valuesOnSecondThread.isEmpty, state)
    case 1:
      // Starts once the first thread handed over: its events done and its stores visible.
      if valuesOnSecondThread.isEmpty {
        program = nil
      } else if state.threads[0].event < valuesOnFirstThread.count + (completes && valuesOnSecondThread.isEmpty ? 1 : 0)
        || !state.memory.isDrained(0)
      {
        program = []
      } else {
        program = upstream(1, values: valuesOnSecondThread, completing: completes, state)
      }
    default: program = cancelsFromAnotherThread ? cancel(2, state) : nil
    }
    if let program { result.append(contentsOf: program) }
    if program == nil && state.memory.isDrained(thread) { return nil }
    return result
  }

  // MARK: Upstream: values, then the completion

  private func upstream(_ thread: Int, values: [Int], completing: Bool, _ state: State) -> [(String, State)]? {
    let local = state.threads[thread]
    if local.nestedCancel >= 0 { return cancel(thread, state) }
    if local.event < values.count { return deliver(thread, values[local.event], state) }
    if completing, local.event == values.count { return completion(thread, state) }
    return nil
  }

  private func deliver(_ thread: Int, _ value: Int, _ state: State) -> [(String, State)] {
    var s = state
    let me = Self.token(thread)
    var l = s.threads[thread]
    func emit(_ label: String) -> [(String, State)] {
      s.threads[thread] = l
      return [(label, s)]
    }
    func done() {
      l.event += 1
      l.pc = 0
    }
    let drained = s.memory.isDrained(thread)
    switch l.pc {
    case 0:
      // `deliver`: raise `depth` (plain), then read `owner`.
      l.outer = s.memory.load(Self.depth, by: thread)
      s.memory.store(Self.depth, l.outer + 1, by: thread)
      l.pc = 1
      return emit("value \(value): depth = \(l.outer + 1)")
    case 1:
      if s.memory.load(Self.owner, by: thread) == me {
        l.path = 0
        l.pc = 10
        return emit("owner is me")
      }
      l.pc = 2
      return emit("owner is not me")
    case 2:
      // `claim`: read `owner`; a compare-and-exchange (drains the buffer) unless ended.
      let current = s.memory.load(Self.owner, by: thread)
      if Self.isEnded(current) || !barrierAvailable {
        l.pc = 4
        return emit("no claim")
      }
      guard drained else { return [] }
      if s.memory.memory[Self.owner] == current { s.memory.storeFenced(Self.owner, me, by: thread) }
      l.pc = 3
      return emit("claim: owner \(current) → me")
    case 3:
      if s.memory.load(Self.owner, by: thread) == me {
        l.path = 1
        l.pc = 10
        return emit("claimed")
      }
      l.pc = 4
      return emit("not claimed")
    case 4:
      // `beginFenced`: sequentially consistent store of `depth`, then load of `owner`.
      guard drained else { return [] }
      s.memory.storeFenced(Self.depth, l.outer + 1, by: thread)
      l.pc = 5
      return emit("depth = \(l.outer + 1) (fenced)")
    case 5:
      guard drained else { return [] }
      l.path = Self.isEnded(s.memory.load(Self.owner, by: thread)) ? 3 : 2
      l.pc = l.path == 3 ? 12 : 10
      return emit(l.path == 3 ? "ended: skip" : "fenced path")
    case 10:
      enter(value, &s)
      l.pc = 11
      return emit("enter \(value)")
    case 11:
      if cancelsFromInside == value, thread == 0, !s.insideCancelDone {
        s.insideCancelDone = true
        l.nestedCancel = 0
        return emit("cancel from inside \(value)")
      }
      s.inside -= 1
      l.pc = 12
      return emit("return from \(value)")
    case 12:
      // The end: restore `depth` (release or fenced), then read `owner`.
      if l.path == 2 || l.path == 3 {
        guard drained else { return [] }
        s.memory.storeFenced(Self.depth, l.outer, by: thread)
      } else {
        s.memory.store(Self.depth, l.outer, by: thread)
      }
      l.pc = 13
      return emit("depth = \(l.outer)")
    case 13:
      if (l.path == 2 || l.path == 3), !drained { return [] }
      let owner = s.memory.load(Self.owner, by: thread)
      switch l.path {
      case 0: l.due = owner != me && l.outer == 0
      default: l.due = l.outer == 0 && owner == Self.ended
      }
      if l.due {
        l.pc = 14
      } else {
        done()
      }
      return emit("owner is \(owner)")
    default:
      // `takeReleaseDuty`: a compare-and-exchange.
      guard drained else { return [] }
      takeReleaseDuty(thread, &s)
      l.due = false
      done()
      return emit("take the release duty")
    }
  }

  private func completion(_ thread: Int, _ state: State) -> [(String, State)] {
    var s = state
    var l = s.threads[thread]
    func emit(_ label: String) -> [(String, State)] {
      s.threads[thread] = l
      return [(label, s)]
    }
    let drained = s.memory.isDrained(thread)
    switch l.pc {
    case 0:
      // Under the sink's lock: `endFromUpstream`.
      guard drained else { return [] }
      let running = s.memory.load(Self.depth, by: thread) != 0
      let current = s.memory.memory[Self.owner]
      if Self.isEnded(current) {
        l.ending = 0
        l.event += 1
        return emit("completion: already ended (lock)")
      }
      s.memory.storeFenced(Self.owner, running ? Self.ended : Self.released, by: thread)
      s.ended = true
      l.ending = running ? 2 : 1
      l.pc = 1
      return emit("completion: end the gate (lock)")
    case 1:
      // `deliverLast`: raise `depth`, call, restore.
      l.outer = s.memory.load(Self.depth, by: thread)
      s.memory.store(Self.depth, l.outer + 1, by: thread)
      if s.released > 0 { s.violation = "the completion called released closures" }
      if s.inside > 0 { s.violation = "the completion during another call" }
      s.completions += 1
      s.inside += 1
      l.pc = 2
      return emit("enter completion")
    case 2:
      s.inside -= 1
      s.memory.store(Self.depth, l.outer, by: thread)
      if l.ending == 1 {
        l.pc = 3
      } else {
        l.event += 1
      }
      return emit("return from completion")
    default:
      release(&s)
      l.event += 1
      return emit("release the closures")
    }
  }

  // MARK: Cancel

  /// `Sink.cancel()`, on `thread` (the canceller, or a delivering thread from inside a call).
  private func cancel(_ thread: Int, _ state: State) -> [(String, State)]? {
    var s = state
    var l = s.threads[thread]
    let me = Self.token(thread)
    let nested = thread != 2
    var pc = nested ? l.nestedCancel : l.pc
    if !nested, l.event > 0 { return nil }
    func emit(_ label: String) -> [(String, State)] {
      if nested {
        if l.nestedCancel >= 0 { l.nestedCancel = pc }
      } else if l.event == 0 {
        l.pc = pc
      }
      s.threads[thread] = l
      return [(label, s)]
    }
    func finish() {
      if nested {
        l.nestedCancel = -1
      } else {
        l.event = 1
      }
      s.cancelReturned = true
    }
    let drained = s.memory.isDrained(thread)
    switch pc {
    case 0:
      // `hasEnded`.
      if Self.isEnded(s.memory.load(Self.owner, by: thread)) {
        finish()
        return emit("cancel: ended already")
      }
      pc = 1
      return emit("cancel: not ended")
    case 1:
      // Under the lock: `endForCancel`.
      guard drained else { return [] }
      let current = s.memory.memory[Self.owner]
      if current == me, s.memory.memory[Self.depth] == 0 {
        s.memory.storeFenced(Self.owner, Self.released, by: thread)
        s.ended = true
        l.ending = 1
        pc = 3
        return emit("cancel: owner, idle: take the duty (lock)")
      }
      if Self.isEnded(current) {
        finish()
        return emit("cancel: ended meanwhile (lock)")
      }
      s.memory.storeFenced(Self.owner, Self.ended, by: thread)
      s.ended = true
      l.previous = current
      l.ending = current == me ? 2 : 3
      pc = l.ending == 2 ? 9 : 2
      return emit("cancel: end the gate (lock)")
    case 2:
      // `settle`: the process-wide barrier if someone owned the gate (every thread's stores
      // reach memory), then, as a separate step, read `depth`.
      if l.previous != Self.noOwner, !omitsBarrier {
        guard s.memory.isDrained else { return [] }
        pc = 5
        return emit("settle: process-wide barrier")
      }
      pc = 5
      return emit("settle: no barrier needed")
    case 5:
      guard drained else { return [] }
      let depth = s.memory.load(Self.depth, by: thread)
      pc = depth == 0 ? 4 : 9
      return emit("settle: depth is \(depth)")
    case 3:
      release(&s)
      finish()
      return emit("release the closures")
    case 4:
      guard drained else { return [] }
      takeReleaseDuty(thread, &s)
      finish()
      return emit("settle: take the duty")
    default:
      finish()
      return emit("cancel returns")
    }
  }

  // MARK: Shared

  private func enter(_ value: Int, _ s: inout State) {
    if s.released > 0 { s.violation = "\(value) called released closures" }
    if s.inside > 0 { s.violation = "\(value) during another call" }
    if s.completions > 0 { s.violation = "\(value) after the completion" }
    if s.cancelReturned { s.startedAfterCancel += 1 }
    if s.startedAfterCancel > 1 { s.violation = "a second value started after cancel() returned" }
    s.inside += 1
  }

  private func takeReleaseDuty(_ thread: Int, _ s: inout State) {
    if s.memory.memory[Self.owner] == Self.ended {
      s.memory.storeFenced(Self.owner, Self.released, by: thread)
      release(&s)
    }
  }

  private func release(_ s: inout State) {
    if s.inside > 0 { s.violation = "released the closures while a call into them ran" }
    s.released += 1
    if s.released > 1 { s.violation = "released the closures twice" }
  }

  func violation(in state: State) -> String? { state.violation }

  func finalViolation(in state: State) -> String? {
    if state.ended, state.released != 1 {
      return "the gate ended but the closures were released \(state.released) times"
    }
    if completes, !cancelsFromAnotherThread, cancelsFromInside == nil, state.completions != 1 {
      return "the completion was not delivered"
    }
    return nil
  }
}
