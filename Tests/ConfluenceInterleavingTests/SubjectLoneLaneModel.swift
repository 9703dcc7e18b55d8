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
/// What it checks (the lane's invariant and Apple's promises): never two events inside the
/// subscriber at once; never a call into a subscriber that was released; every value
/// accepted is delivered exactly once, each thread's values in its order (a re-entrant
/// send's value after the one being delivered); one completion, nothing after it; after a
/// cancel has returned, at most the value already in flight starts; with no cancel and no
/// completion, every value sent with demand available is delivered.
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

  let roles: [Role]
  /// A value on whose delivery the subscriber sends `reentrant.value` re-entrantly.
  let reentrant: (trigger: Int, value: Int)?

  var threadCount: Int { roles.count }

  // MARK: State

  /// Where a thread is in sending one value.
  enum PC: Hashable {
    case start
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
  }

  struct ThreadState: Hashable {
    /// The next value to send (senders) or 0/1 (done) for the others.
    var next = 0
    /// Nested sends: the innermost last.
    var frames: [Frame] = []
    var finished = false
  }

  struct State: Hashable {
    var lane = SubjectLane.closed
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
  }

  var initialState: State {
    let requested = !roles.contains(.requester)
    var conduit = ConduitModel(demand: requested ? .unlimited : .none)
    var lane = SubjectLane.closed
    if requested {
      // The lane opened when the subscriber asked for `.unlimited`: it holds ownership.
      conduit.state.isDelivering = true
      lane = SubjectLane.open
    }
    return State(
      lane: lane, conduit: conduit, reentrantPending: reentrant != nil,
      threads: Array(repeating: ThreadState(), count: roles.count))
  }

  // MARK: Steps

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    let me = state.threads[thread]
    if me.finished { return nil }
    guard let frame = me.frames.last else {
      return startNext(thread, in: state)
    }
    return step(thread, frame, in: state)
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
      closeLane(&s)
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
      s.conduit.state.addDemand(.unlimited)
      openLaneIfEligible(&s)
      s.threads[thread].finished = true
      return [("request .unlimited", s)]
    case .completer:
      if s.threads[thread].next == 0 {
        // `send(completion:)`'s critical section.
        closeLane(&s)
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

  private func step(_ thread: Int, _ frame: Frame, in state: State) -> [(label: String, next: State)] {
    var s = state
    let value = frame.value
    func go(_ pc: PC) { s.threads[thread].frames[s.threads[thread].frames.count - 1].pc = pc }
    func pop() { s.threads[thread].frames.removeLast() }

    switch frame.pc {
    case .start:
      // `sendThroughLane`'s first compare-and-exchange: open → owned.
      if s.lane == SubjectLane.open {
        s.lane = SubjectLane.owned
        go(.laneNoteThread)
        return [("lane open → owned", s)]
      }
      go(.lockSend)
      return [("lane not open", s)]
    case .laneNoteThread:
      s.deliveringThread = thread + 1
      go(.laneEnter)
      return [("note delivering thread", s)]
    case .laneEnter:
      enter(value, &s, by: thread)
      go(.laneInside)
      return [("enter \(value) (lane)", s)]
    case .laneInside:
      if let nested = nestedSend(value, &s, thread) { return [nested] }
      s.inside -= 1
      go(.laneClearThread)
      return [("return from \(value)", s)]
    case .laneClearThread:
      // The owner forgets itself before it gives the lane up (`SubjectConduit.forgetDeliveringThread`).
      s.deliveringThread = 0
      go(.laneGiveUp)
      return [("clear delivering thread", s)]
    case .laneGiveUp:
      if s.lane == SubjectLane.owned {
        s.lane = SubjectLane.open
        pop()
        return [("lane owned → open", s)]
      }
      // Still the owner, through the lock: noted again.
      s.deliveringThread = thread + 1
      go(.finishLane)
      return [("lane closed meanwhile", s)]
    case .finishLane:
      s.lane = SubjectLane.closed
      finishOwned(&s, thread)
      return [("finish lane delivery (lock)", s)]
    case .lockSend:
      // `sendThroughLock`: close the lane, plan with `SubjectState.send` for one subscriber.
      closeLane(&s)
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
      if s.conduit.state.isDelivering { closeLane(&s) }
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
        s.threads[thread].frames[s.threads[thread].frames.count - 1].value = -1
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

  private func closeLane(_ s: inout State) {
    if s.lane == SubjectLane.open {
      s.lane = SubjectLane.closed
      s.conduit.state.isDelivering = false
    } else if s.lane == SubjectLane.owned {
      s.lane = SubjectLane.ownedClosed
    }
  }

  private func openLaneIfEligible(_ s: inout State) {
    guard s.conduit.state.isLaneEligible, !s.subjectCompleted, s.listed, s.lane == SubjectLane.closed else {
      return
    }
    s.conduit.state.isDelivering = true
    s.lane = SubjectLane.open
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
