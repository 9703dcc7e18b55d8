@testable import Confluence

/// A `PassthroughSubject` with one subscriber, as `SubjectStorage` serves it: the
/// lone-subscriber lane (`SubjectLane`: one compare-and-exchange to take delivery, one to
/// give it up), and the subject's lock for everything else. Every critical section runs the
/// library's own state machine (`SubjectConduitState`); the lane's atomic steps, the calls
/// into the subscriber and the order of the sections are the model's, mirroring
/// `SubjectStorage.sendWithoutCurrentValue`, `sendThroughLane`, `sendThroughLock`,
/// `deliverAfterWaiting`, `SubjectConduit.finishOwnedDelivery`,
/// `continueDeliveryAfterEvents`, `cancelSpecialized`, `requestSpecialized` and
/// `SubjectStorage.send(completion:)`.
///
/// The thread-bound lane (when ``barrierAvailable``, or ``initiallyBound``): a sender that
/// took the lane with the compare-and-exchange ``bindGoal`` times in a row binds it to its
/// thread under the lock when it gives it up (`owned` → `bound(t)`, its verdict reset);
/// from then on that thread delivers with plain loads and stores only: it reads the lane,
/// marks its binding busy (a plain store, which waits in its store buffer), reads the lane
/// again, delivers, unmarks (plain), and reads the lane once more; only when a read finds
/// the lane no longer bound to it does it take, under the lock, the verdict a closer posted
/// for it. A locked operation that finds the lane bound to thread `u` closes it in the same
/// critical section as today's `closeLane`, in steps: (a) the lane becomes `ownedClosed`
/// (with the lock held: no other locked section runs until (d)); (b) unless `u` is the
/// closing thread itself (a re-entrant close), the process-wide barrier, a step enabled only
/// once every thread's store buffer is empty; (c) it reads `u`'s `busy` (its own view if `u`
/// is itself, else memory); (d) it posts the verdict: busy, `u` stays the conduit's owner
/// (the lane stays `ownedClosed`, as when closing an owned lane); idle, the lane becomes
/// `closed` and the conduit unowned (as when closing an open lane); then the rest of the
/// section runs. (a) is one step, (b) another, (c), (d) and the rest of the section a third,
/// so that the bound thread's loads and stores and every store buffer's flush interleave
/// between them. Memory: `busy` of each thread is a location in ``StoreBuffers`` (x86-64's
/// TSO), written only by its thread with plain stores; every other location is sequentially
/// consistent as before (the lane word: read-modify-writes, sequentially consistent stores
/// or stores under the lock; the rest under the lock or owned by one thread). A lock
/// acquisition and the lane's compare-and-exchange are locked instructions: enabled only
/// once the thread's own buffer is empty. Any thread's oldest buffered store may reach
/// memory at any step, also after its thread finished (a final state has empty buffers).
/// Where the model is coarser than the code, it loses no behaviour: a send's first read of
/// a lane not bound to its thread is one step with the compare-and-exchange that follows
/// (see `.start`); the barrier is one moment at which every buffer is empty, though
/// `membarrier` fences each thread at its own moment (only the bound thread's `busy` is read
/// after it; the other buffers hold only their own threads' `busy`, which only a close with
/// a barrier of its own reads, so when they drain is moot); (c) and (d) are one
/// step (between them only lock-free steps run, and the bound thread's reads find the lane not
/// bound to it either way). The bound thread's verdict and its finishing as the owner are two
/// critical sections (as a failed give-up and `.finishLane` are), which admits more schedules
/// than one would. The delivering thread's token stays sequentially consistent, as before: it
/// only ever matters to the thread that wrote it, which reads its own buffer first.
///
/// What it checks (the lane's invariant and Apple's promises): never two events inside the
/// subscriber at once; never a call into a subscriber that was released; every value
/// accepted is delivered exactly once, by the thread that sent it, each thread's values in
/// its order (a re-entrant send's value after the one being delivered); one completion,
/// nothing after it; after a cancel has returned, at most the value already in flight
/// starts, and the subscriber is released; with no cancel and no completion, every value sent
/// with demand available is delivered; once every thread finished, the conduit is owned
/// exactly while the lane holds it (open or bound); a bound thread that finds its lane closed
/// always finds a verdict posted for it ("no verdict"), and takes every verdict that makes it
/// the owner.
struct SubjectLoneLaneModel: InterleavingModel {
  /// What each thread does.
  enum Role: Hashable {
    /// Sends these values in order (each is unique across the model).
    case sender([Int])
    case canceller
    case completer
    /// Requests `.unlimited` (the subscriber starts with no demand and the lane closed).
    case requester
  }

  /// A deliberate flaw in the bound lane's protocol, for the record of what the checks catch.
  enum Mutation: Hashable {
    /// A closer reads the bound thread's `busy` without the process-wide barrier (step (b)
    /// always enabled, every buffer as it is).
    case closerSkipsBarrier
    /// A closer always decides that the bound thread does not own the conduit: the lane
    /// becomes `closed` and the conduit unowned, whatever `busy` says.
    case closerAlwaysNotOwner
    /// The bound thread returns after its delivery without reading the lane again, so without
    /// taking the verdict a closer may have posted meanwhile.
    case boundSenderSkipsRecheck
    /// The bound thread delivers right after marking itself busy, without reading the lane
    /// again (its first read came before the mark: a Dekker protocol with one read too few).
    case boundSenderSkipsCheck
    /// The bound thread that found the lane closed before delivering sends its value through
    /// the unbound path without taking the verdict (as if it were never the owner).
    case earlyPathIgnoresVerdict
    /// The bound thread takes its verdict without waiting for a close in progress (as if the
    /// closer posted it in a later critical section, or the verdict were read without the lock).
    case verdictTakenDuringClose
  }

  let roles: [Role]
  /// A value on whose delivery the subscriber sends `reentrant.value` re-entrantly.
  let reentrant: (trigger: Int, value: Int)?
  /// Whether the process-wide barrier exists: if not, no sender ever binds the lane (the
  /// protocol as it was before the bound lane).
  var barrierAvailable = false
  /// How many deliveries in a row through the lane's compare-and-exchange bind the lane to
  /// the sender's thread.
  var bindGoal = 1
  /// The lane starts bound to thread 0 (which has a binding: idle, no verdict).
  var initiallyBound = false
  var mutation: Mutation?

  var threadCount: Int { roles.count }

  // MARK: The lane's states (`SubjectLane`'s, and the bound ones)

  static let closed = Int(SubjectLane.closed)
  static let open = Int(SubjectLane.open)
  static let owned = Int(SubjectLane.owned)
  static let ownedClosed = Int(SubjectLane.ownedClosed)

  /// The lane bound to `thread`'s binding.
  static func bound(_ thread: Int) -> Int { 16 + thread }

  /// The thread the lane is bound to, if it is bound.
  static func boundThread(_ lane: Int) -> Int? { lane >= 16 ? lane - 16 : nil }

  // MARK: State

  /// Where a thread is in sending one value.
  enum PC: Hashable {
    /// The send's first read of the lane: bound to this thread (and not already busy: not a
    /// re-entrant send from inside a bound delivery), or not.
    case start
    /// The bound path: `busy` = 1 (plain store).
    case boundMark
    /// The bound path: the lane read again.
    case boundCheck
    /// The bound path, after the delivery: `busy` = 0 (plain store).
    case boundUnmark
    /// The bound path: the lane read once more.
    case boundRecheck
    /// The bound path, the lane closed meanwhile: the verdict, under the lock.
    case boundVerdict
    /// The lane closed between the first and second read: `busy` = 0, nothing delivered.
    case boundUnmarkEarly
    /// The verdict, under the lock, then the value through the unbound path.
    case boundVerdictEarly
    /// The send as before the bound lane: the lane's compare-and-exchange open → owned.
    case unboundStart
    case laneNoteThread
    case laneEnter
    case laneInside
    case laneClearThread
    case laneGiveUp
    case finishLane
    case lockSend
    case ownedEnter(Int)
    case ownedInside(Int)
    case finishOwned
    case nextStep
    case completionEnter
    case completionExit
    case waitClaim
  }

  struct Frame: Hashable {
    var value: Int
    var pc: PC
    /// The value is being delivered through the bound lane (its lane steps end with
    /// `boundUnmark`, not `laneGiveUp`).
    var bound = false
  }

  struct ThreadState: Hashable {
    /// The next value to send (senders) or 0/1 (done) for the others.
    var next = 0
    /// Nested sends: the innermost last.
    var frames: [Frame] = []
    var finished = false
  }

  /// What a closer posted for a bound thread (under the lock).
  enum Verdict: Hashable {
    case unset
    /// The bound thread was busy: it owns the conduit and finishes through the lock.
    case owner
    /// It was not: the lane closed, the conduit unowned.
    case notOwner
  }

  /// A close of a bound lane in progress: step (a) done, the lock held by `thread`.
  struct Closing: Hashable {
    var thread: Int
    var boundTo: Int
    var barrierDone: Bool
  }

  struct State: Hashable {
    var lane = Int(SubjectLane.closed)
    var conduit: ConduitModel
    var deliveringThread = 0
    var listed = true
    var subjectCompleted = false
    var downstreamAlive = true
    var inside = 0
    var log: [Int] = []
    var completions = 0
    var cancelReturned = false
    var startedAfterCancel = 0
    var reentrantPending: Bool
    /// The thread whose delivery of the trigger sent the re-entrant value.
    var reentrantSender: Int?
    /// Values whose send began after the requester's demand was in place.
    var sentWithDemand: [Int] = []
    var violation: String?
    var threads: [ThreadState]
    /// Location `t`: thread `t`'s binding's `busy` (0 or 1).
    var memory: StoreBuffers
    /// Thread `t`'s binding's verdict (under the lock).
    var verdicts: [Verdict]
    /// The streak of deliveries through the lane's compare-and-exchange (kept by the lane's owner).
    var streakThread = -1
    var streak = 0
    var closing: Closing?
  }

  var initialState: State {
    let requested = !roles.contains(.requester)
    var conduit = ConduitModel(demand: requested ? .unlimited : .none)
    var lane = Self.closed
    if requested {
      // The lane opened when the subscriber asked for `.unlimited`: it holds ownership.
      conduit.state.isDelivering = true
      lane = initiallyBound ? Self.bound(0) : Self.open
    }
    return State(
      lane: lane, conduit: conduit, reentrantPending: reentrant != nil,
      threads: Array(repeating: ThreadState(), count: roles.count),
      memory: StoreBuffers(locations: Array(repeating: 0, count: roles.count), threads: roles.count),
      verdicts: Array(repeating: .unset, count: roles.count))
  }

  // MARK: Steps

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    var result: [(label: String, next: State)] = []
    if !state.memory.isDrained(thread) {
      var s = state
      s.memory.flushOldest(of: thread)
      result.append(("busy store reaches memory", s))
    }
    if let program = programSteps(thread, in: state) {
      result += program
    } else if result.isEmpty {
      return nil
    }
    return result
  }

  private func programSteps(_ thread: Int, in state: State) -> [(label: String, next: State)]? {
    if let closing = state.closing, closing.thread == thread, !closing.barrierDone {
      // Step (b) of closing a lane bound to another thread: `membarrier`, which returns once
      // every running thread executed a full fence (every store buffer empty).
      var s = state
      s.closing?.barrierDone = true
      if mutation == .closerSkipsBarrier { return [("no process-wide barrier (mutation)", s)] }
      guard state.memory.isDrained else { return [] }
      return [("process-wide barrier", s)]
    }
    let me = state.threads[thread]
    if me.finished { return nil }
    guard let frame = me.frames.last else {
      return startNext(thread, in: state)
    }
    return step(thread, frame, in: state)
  }

  /// Whether `thread` may take the subject's lock now: nobody else holds it (the only section
  /// the model keeps open across steps is a close of a bound lane), and, a lock acquisition
  /// being a locked instruction, its own store buffer is empty.
  private func mayLock(_ thread: Int, _ state: State) -> Bool {
    (state.closing == nil || state.closing?.thread == thread) && state.memory.isDrained(thread)
  }

  private func startNext(_ thread: Int, in state: State) -> [(label: String, next: State)]? {
    var s = state
    switch roles[thread] {
    case .sender(let values):
      guard s.threads[thread].next < values.count else {
        s.threads[thread].finished = true
        return [("done", s)]
      }
      let value = values[s.threads[thread].next]
      s.threads[thread].next += 1
      if let requester = roles.firstIndex(of: .requester), s.threads[requester].finished {
        s.sentWithDemand.append(value)
      }
      s.threads[thread].frames = [Frame(value: value, pc: .start)]
      return [("send \(value)", s)]
    case .canceller:
      // One critical section: `cancelSpecialized`.
      guard mayLock(thread, s) else { return [] }
      if let split = closeBoundLaneFirst(thread, s) { return [split] }
      closeLane(&s, by: thread)
      if s.conduit.state.cancel() {
        s.listed = false
        s.downstreamAlive = false
        _ = s.conduit.state.takePending()
      }
      s.cancelReturned = true
      s.threads[thread].finished = true
      return [("cancel", s)]
    case .requester:
      // `requestSpecialized` for a subject without a current value.
      guard mayLock(thread, s) else { return [] }
      s.conduit.state.addDemand(.unlimited)
      openLaneIfEligible(&s)
      s.threads[thread].finished = true
      return [("request .unlimited", s)]
    case .completer:
      if s.threads[thread].next == 0 {
        // `send(completion:)`'s critical section.
        guard mayLock(thread, s) else { return [] }
        if let split = closeBoundLaneFirst(thread, s) { return [split] }
        closeLane(&s, by: thread)
        s.threads[thread].next = 1
        guard !s.subjectCompleted else {
          s.threads[thread].finished = true
          return [("complete (already)", s)]
        }
        s.subjectCompleted = true
        if s.listed {
          if s.conduit.state.complete() {
            s.listed = false
            s.threads[thread].frames = [Frame(value: 0, pc: .completionEnter)]
            s.downstreamAlive = false  // `deliverCompletion` takes it (its own section)
          } else if !(s.conduit.state.isCompletionPending || s.conduit.state.isDelivering) {
            s.listed = false
          }
        }
        if s.threads[thread].frames.isEmpty { s.threads[thread].finished = true }
        return [("send(completion:)", s)]
      }
      s.threads[thread].finished = true
      return [("done", s)]
    }
  }

  /// Whether the lane's owner `thread`, giving the lane up, binds it instead (under the lock).
  private func binds(_ thread: Int, _ state: State) -> Bool {
    barrierAvailable && state.streakThread == thread && state.streak >= bindGoal
  }

  private func step(_ thread: Int, _ frame: Frame, in state: State) -> [(label: String, next: State)] {
    var s = state
    let value = frame.value
    let top = s.threads[thread].frames.count - 1
    func go(_ pc: PC) { s.threads[thread].frames[top].pc = pc }
    func pop() { s.threads[thread].frames.removeLast() }

    // The steps that take the subject's lock.
    switch frame.pc {
    case .boundVerdict where mutation == .verdictTakenDuringClose,
      .boundVerdictEarly where mutation == .verdictTakenDuringClose:
      guard s.memory.isDrained(thread) else { return [] }
    case .lockSend, .waitClaim, .finishLane, .finishOwned, .nextStep, .boundVerdict, .boundVerdictEarly:
      guard mayLock(thread, s) else { return [] }
    case .laneGiveUp where binds(thread, s):
      guard mayLock(thread, s) else { return [] }
    default: break
    }

    /// `sendThroughLane` as before the bound lane: the compare-and-exchange open → owned (a
    /// locked instruction: on an empty buffer), which also keeps the streak.
    func unboundStart(_ label: String) -> [(label: String, next: State)] {
      guard s.memory.isDrained(thread) else { return [] }
      if s.lane == Self.open {
        s.lane = Self.owned
        if barrierAvailable {
          if s.streakThread == thread {
            s.streak += 1
          } else {
            s.streakThread = thread
            s.streak = 1
          }
        }
        go(.laneNoteThread)
        return [("\(label)lane open → owned", s)]
      }
      go(.lockSend)
      return [("\(label)lane not open", s)]
    }

    /// Under the lock: the verdict posted for this thread's binding, taken (reset).
    func takeVerdict() -> Verdict {
      let verdict = s.verdicts[thread]
      if verdict == .unset { s.violation = "no verdict: thread \(thread) found its lane closed, no verdict posted" }
      s.verdicts[thread] = .unset
      return verdict
    }

    switch frame.pc {
    case .start:
      if s.lane == Self.bound(thread), s.memory.load(thread, by: thread) == 0 {
        go(.boundMark)
        return [("lane bound to me", s)]
      }
      // Not bound to this thread (or a re-entrant send from inside its bound delivery): the
      // unbound path. The read and the compare-and-exchange are one step here: the read has
      // no effect but the choice of path, and a lane not bound to this thread cannot become
      // bound to it before its compare-and-exchange (only the thread itself binds, as an
      // owner giving the lane up), so the path would be the same at the later moment.
      return unboundStart("not bound to me: ")
    case .boundMark:
      s.memory.store(thread, 1, by: thread)
      if mutation == .boundSenderSkipsCheck {
        s.threads[thread].frames[top].bound = true
        go(.laneNoteThread)
        return [("busy = 1 (plain), no second read (mutation)", s)]
      }
      go(.boundCheck)
      return [("busy = 1 (plain)", s)]
    case .boundCheck:
      if s.lane == Self.bound(thread) {
        s.threads[thread].frames[top].bound = true
        go(.laneNoteThread)
        return [("lane still bound to me", s)]
      }
      go(.boundUnmarkEarly)
      return [("lane no longer bound to me", s)]
    case .boundUnmark:
      s.memory.store(thread, 0, by: thread)
      go(.boundRecheck)
      return [("busy = 0 (plain)", s)]
    case .boundRecheck:
      if s.lane == Self.bound(thread) {
        pop()
        return [("lane still bound to me: done", s)]
      }
      if mutation == .boundSenderSkipsRecheck {
        pop()
        return [("done without the verdict (mutation)", s)]
      }
      go(.boundVerdict)
      return [("lane closed meanwhile", s)]
    case .boundVerdict:
      if takeVerdict() == .owner {
        // The conduit's owner, through the lock, as after a failed give-up.
        s.deliveringThread = thread + 1
        go(.finishLane)
        return [("verdict: owner (lock)", s)]
      }
      pop()
      return [("verdict: not the owner (lock)", s)]
    case .boundUnmarkEarly:
      s.memory.store(thread, 0, by: thread)
      go(.boundVerdictEarly)
      return [("busy = 0 (plain)", s)]
    case .boundVerdictEarly:
      if mutation == .earlyPathIgnoresVerdict {
        go(.unboundStart)
        return [("no verdict taken (mutation)", s)]
      }
      let verdict = takeVerdict()
      go(.unboundStart)
      if verdict == .owner {
        // The conduit's owner, having delivered nothing: it finishes as the owner (with no
        // demand returned), then sends its value through the unbound path.
        s.deliveringThread = thread + 1
        s.threads[thread].frames.append(Frame(value: -1, pc: .finishLane))
        return [("verdict: owner, nothing delivered (lock)", s)]
      }
      return [("verdict: not the owner (lock)", s)]
    case .unboundStart:
      return unboundStart("")
    case .laneNoteThread:
      s.deliveringThread = thread + 1
      go(.laneEnter)
      return [("note delivering thread", s)]
    case .laneEnter:
      enter(value, &s, by: thread)
      go(.laneInside)
      return [("enter \(value) (\(frame.bound ? "bound " : "")lane)", s)]
    case .laneInside:
      if let nested = nestedSend(value, &s, thread) { return [nested] }
      s.inside -= 1
      go(.laneClearThread)
      return [("return from \(value)", s)]
    case .laneClearThread:
      // The owner forgets itself before it gives the lane up (`SubjectConduit.forgetDeliveringThread`).
      s.deliveringThread = 0
      go(frame.bound ? .boundUnmark : .laneGiveUp)
      return [("clear delivering thread", s)]
    case .laneGiveUp:
      if binds(thread, s) {
        // The streak reached the goal: bind the lane to this thread, under the lock.
        if s.lane == Self.owned {
          s.lane = Self.bound(thread)
          s.verdicts[thread] = .unset
          s.streak = 0
          pop()
          return [("lane owned → bound to me (lock)", s)]
        }
        s.deliveringThread = thread + 1
        go(.finishLane)
        return [("bind: lane closed meanwhile (lock)", s)]
      }
      guard s.memory.isDrained(thread) else { return [] }
      if s.lane == Self.owned {
        s.lane = Self.open
        pop()
        return [("lane owned → open", s)]
      }
      // Still the owner, through the lock: noted again.
      s.deliveringThread = thread + 1
      go(.finishLane)
      return [("lane closed meanwhile", s)]
    case .finishLane:
      s.lane = Self.closed
      finishOwned(&s, thread)
      return [("finish lane delivery (lock)", s)]
    case .lockSend:
      // `sendThroughLock`: close the lane, plan with `SubjectState.sendWithoutCurrentValue` for one subscriber.
      if let split = closeBoundLaneFirst(thread, s) { return [split] }
      closeLane(&s, by: thread)
      guard !s.subjectCompleted, s.listed else {
        pop()
        return [("send \(value): nobody (lock)", s)]
      }
      switch offer(value, &s, thread) {
      case .owned: go(.ownedEnter(value))
      case .done: pop()
      case .reserved: go(.waitClaim)
      }
      return [("send \(value) (lock)", s)]
    case .waitClaim:
      // `deliverAfterWaiting`: retry until the claim is not busy.
      if s.conduit.state.isDelivering {
        if let split = closeBoundLaneFirst(thread, s) { return [split] }
        closeLane(&s, by: thread)
      }
      let isOwnerThread = s.deliveringThread == thread + 1
      let outcome = s.conduit.state.claimReserved(byOwnerThread: isOwnerThread, queue: { $0.append(value) })
      switch outcome {
      case .owned:
        s.deliveringThread = thread + 1
        go(.ownedEnter(value))
      case .done:
        pop()
      case .reserved:
        if s == state { return [] }  // busy, nothing changed: waiting
      }
      return [("claim \(value) (lock)", s)]
    case .ownedEnter(let delivered):
      enter(delivered, &s, by: thread)
      go(.ownedInside(delivered))
      return [("enter \(delivered)", s)]
    case .ownedInside(let delivered):
      if let nested = nestedSend(delivered, &s, thread) { return [nested] }
      s.inside -= 1
      go(frame.value == delivered ? .finishOwned : .nextStep)
      return [("return from \(delivered)", s)]
    case .finishOwned:
      finishOwned(&s, thread)
      return [("finish delivery (lock)", s)]
    case .nextStep:
      switch s.conduit.state.didDeliver(returning: .none) {
      case .deliver(let queued):
        go(.ownedEnter(queued))
        // Not `frame.value`: after it returns, the owner asks again (`nextStep`).
        s.threads[thread].frames[top].value = -1
      case .deliverCurrentValue:
        s.violation = "a subject without a current value owed one"
      case .idle:
        s.deliveringThread = 0
        openLaneIfEligible(&s)
        pop()
      case .complete:
        s.deliveringThread = 0
        s.downstreamAlive = false
        s.listed = false
        go(.completionEnter)
      case .cancelled:
        s.deliveringThread = 0
        s.downstreamAlive = false
        s.listed = false
        _ = s.conduit.state.takePending()
        pop()
      }
      return [("next step (lock)", s)]
    case .completionEnter:
      if s.inside > 0 { s.violation = "the completion arrived during another event" }
      if s.completions > 0 { s.violation = "a second completion" }
      s.completions += 1
      s.inside += 1
      go(.completionExit)
      return [("enter completion", s)]
    case .completionExit:
      s.inside -= 1
      pop()
      return [("return from completion", s)]
    }
  }

  // MARK: The library's sections, as SubjectStorage runs them

  private func offer(_ value: Int, _ s: inout State, _ thread: Int)
    -> SubjectConduitState<Int, Never>.OfferOutcome
  {
    let isOwnerThread = s.deliveringThread == thread + 1
    let outcome = s.conduit.state.offer(value, keepsCurrentValue: false, byOwnerThread: isOwnerThread)
    if outcome == .owned { s.deliveringThread = thread + 1 }
    return outcome
  }

  private func finishOwned(_ s: inout State, _ thread: Int) {
    let frames = s.threads[thread].frames.count
    if s.conduit.state.finishDelivery(returning: .none) {
      s.deliveringThread = 0
      openLaneIfEligible(&s)
      s.threads[thread].frames.removeLast()
    } else {
      s.threads[thread].frames[frames - 1].pc = .nextStep
    }
  }

  /// Step (a) of a locked section (by `thread`, which may take the lock) that finds the lane
  /// bound to another thread: the lane becomes `ownedClosed`, and the section, holding the
  /// lock, goes on (steps (b)–(d) and the rest) as later steps. `nil` if the lane is not
  /// bound to another thread, or its close is already under way (by `thread`).
  private func closeBoundLaneFirst(_ thread: Int, _ state: State) -> (label: String, next: State)? {
    guard state.closing == nil, let bound = Self.boundThread(state.lane), bound != thread else { return nil }
    var s = state
    s.lane = Self.ownedClosed
    s.closing = Closing(thread: thread, boundTo: bound, barrierDone: false)
    return ("lane bound to T\(bound) → ownedClosed (lock held)", s)
  }

  /// `closeLane`, at the start of a locked section by `thread`. A lane bound to another
  /// thread was closed by ``closeBoundLaneFirst(_:_:)`` (a) and the barrier step (b) ran:
  /// here (c) and (d). A lane bound to `thread` itself (a re-entrant send's close, from inside
  /// its bound delivery) is closed here in one go: no barrier, its own view of `busy`.
  private func closeLane(_ s: inout State, by thread: Int) {
    var boundTo: Int?
    if let closing = s.closing {
      precondition(closing.thread == thread && closing.barrierDone, "a locked section ran while another held the lock")
      boundTo = closing.boundTo
      s.closing = nil
    } else if let bound = Self.boundThread(s.lane) {
      precondition(bound == thread, "a lane bound to another thread closed without its steps")
      s.lane = Self.ownedClosed
      boundTo = bound
    }
    if let boundTo {
      let busy = s.memory.load(boundTo, by: thread) != 0 && mutation != .closerAlwaysNotOwner
      s.verdicts[boundTo] = busy ? .owner : .notOwner
      if !busy {
        s.lane = Self.closed
        s.conduit.state.isDelivering = false
      }
      return
    }
    if s.lane == Self.open {
      s.lane = Self.closed
      s.conduit.state.isDelivering = false
    } else if s.lane == Self.owned {
      s.lane = Self.ownedClosed
    }
  }

  private func openLaneIfEligible(_ s: inout State) {
    guard s.conduit.state.isLaneEligible, !s.subjectCompleted, s.listed, s.lane == Self.closed else {
      return
    }
    s.conduit.state.isDelivering = true
    s.lane = Self.open
  }

  /// The thread that sent `value`: its sender role's, or, for the re-entrant value, the
  /// thread that delivered the trigger (the nested send runs there).
  private func sender(of value: Int, _ s: State) -> Int? {
    if let reentrant, value == reentrant.value { return s.reentrantSender }
    return roles.firstIndex { if case .sender(let values) = $0 { values.contains(value) } else { false } }
  }

  private func enter(_ value: Int, _ s: inout State, by thread: Int) {
    // Apple's subjects deliver a value on the thread that sends it, before `send` returns:
    // a send that finds another thread delivering waits its turn (rule 5), it never leaves
    // its value to that thread.
    if let sender = sender(of: value, s), sender != thread {
      s.violation = "thread \(sender)'s value \(value) was delivered by thread \(thread)"
    }
    if s.inside > 0 { s.violation = "\(value) arrived during another event" }
    if !s.downstreamAlive { s.violation = "\(value) was delivered to a released subscriber" }
    if s.completions > 0 { s.violation = "\(value) arrived after the completion" }
    if s.log.contains(value) { s.violation = "\(value) was delivered twice" }
    if s.cancelReturned { s.startedAfterCancel += 1 }
    if s.startedAfterCancel > 1 { s.violation = "a second value started after cancel() returned" }
    s.inside += 1
    s.log.append(value)
  }

  /// The subscriber's re-entrant send, from inside its receipt of the trigger value.
  private func nestedSend(_ delivered: Int, _ s: inout State, _ thread: Int) -> (label: String, next: State)? {
    guard let reentrant, s.reentrantPending, delivered == reentrant.trigger else { return nil }
    s.reentrantPending = false
    s.reentrantSender = thread
    s.threads[thread].frames.append(Frame(value: reentrant.value, pc: .start))
    return ("re-entrant send \(reentrant.value)", s)
  }

  // MARK: Checks

  func violation(in state: State) -> String? { state.violation }

  func finalViolation(in state: State) -> String? {
    if state.inside != 0 { return "finished inside a call" }
    // Nobody delivers any more: the conduit is owned exactly while the lane holds it.
    let laneHolds = state.lane == Self.open || Self.boundThread(state.lane) != nil
    if state.conduit.state.isDelivering != laneHolds {
      let left = state.conduit.state.isDelivering ? "taken" : "free"
      return "the conduit's ownership was left \(left) with the lane \(state.lane)"
    }
    if let thread = state.verdicts.firstIndex(of: .owner) {
      return "thread \(thread) was made the owner by a verdict it never took"
    }
    if state.cancelReturned, state.downstreamAlive { return "the cancelled subscriber was never released" }
    for (thread, role) in roles.enumerated() {
      guard case .sender(var values) = role else { continue }
      if let reentrant, thread == 0, let at = values.firstIndex(of: reentrant.trigger) {
        values.insert(reentrant.value, at: at + 1)
      }
      let delivered = state.log.filter(values.contains)
      let ends = roles.contains(.canceller) || roles.contains(.completer)
      if roles.contains(.requester) {
        // Values sent before the demand are dropped: the rest arrive, in order.
        guard delivered == values.filter(delivered.contains) else {
          return "thread \(thread)'s values arrived as \(delivered), out of its order \(values)"
        }
        if let lost = state.sentWithDemand.first(where: { values.contains($0) && !delivered.contains($0) }) {
          return "thread \(thread)'s value \(lost), sent after the demand, was lost (\(state.log))"
        }
      } else if ends {
        guard delivered == Array(values.prefix(delivered.count)) else {
          return "thread \(thread)'s values arrived as \(delivered), not a prefix of \(values)"
        }
      } else if delivered != values {
        return "thread \(thread)'s values arrived as \(delivered), expected \(values) (log \(state.log))"
      }
    }
    if roles.contains(.completer), state.completions != 1, !state.cancelReturned {
      return "the completion was not delivered"
    }
    return nil
  }
}
