@testable import Confluence

/// A `PassthroughSubject` with two subscribers, both with unlimited demand, as
/// `SubjectStorage` serves them: a send plans under the lock (`sendThroughLock`, which offers
/// the value to the first subscriber in the same critical section), then visits each
/// subscriber in turn (`SubjectConduit.deliver(_:toEach:first:of:)`), through the subscriber's own lane
/// (`sendThroughOwnLane`: one compare-and-exchange to take delivery, one to give it up) when
/// it is open, else through a critical section that finishes the previous delivery and
/// offers the value to the next. A cancel that leaves one subscriber closes its own lane;
/// that subscriber is then served through the lock, and through the lone-subscriber lane
/// once that opens. Every critical section runs the library's `SubjectConduitState`.
///
/// Checks, per subscriber: never two events at once; never a call after its release; each
/// value at most once; each thread's values in its order (a re-entrant send's value may
/// reach the other subscriber first, as with Apple's subjects); one completion, nothing after
/// it; at most one value starting after its cancel returned; and every value that should
/// arrive arrives: all of them to a subscriber nobody cancelled, with no completion.
struct SubjectOwnLanesModel: InterleavingModel {
  enum Role: Hashable {
    case sender([Int])
    /// Cancels the first subscriber.
    case cancelFirst
    case completer
  }

  let roles: [Role]
  /// A value on whose delivery to the first subscriber it sends `reentrant.value`.
  let reentrant: (trigger: Int, value: Int)?

  var threadCount: Int { roles.count }

  // MARK: State

  enum LaneKind: Hashable { case none, lone, own }

  enum Frame: Hashable {
    /// `send`: try the lone lane, else plan through the lock.
    case send(value: Int, pc: Int)
    /// The lone lane's delivery: 0 note thread, 1 enter, 2 inside, 3 give up.
    case loneLane(value: Int, conduit: Int, pc: Int)
    /// `SubjectConduit.deliver(_:toEach:first:of:)` over the snapshot.
    case many(value: Int, snapshot: [Int], index: Int, finishing: Int?, first: Offer?, pc: ManyPC)
    /// `sendThroughOwnLane` after its first exchange: 0 note thread, 1 enter, 2 inside, 3 give up.
    case ownLane(value: Int, conduit: Int, pc: Int)
    /// A call into a subscriber with a value this thread owns: 0 enter, 1 inside.
    case call(value: Int, conduit: Int, pc: Int)
    /// `finishOwnedDelivery` (pc 0) then the `continueDeliveryAfterEvents` loop (pc 1).
    case finish(conduit: Int, lane: LaneKind, pc: Int)
    /// Delivering the completion: 0 enter, 1 return.
    case completion(conduit: Int, pc: Int)
    /// `deliverAfterWaiting`: claim until not busy.
    case waitClaim(value: Int, conduit: Int)
    /// The `.one` plan: call, then finish.
    case one(value: Int, conduit: Int, pc: Int)
  }

  enum ManyPC: Hashable {
    case top
    case tryOwnLane
    case lockSection
    case afterCall
  }

  enum Offer: Hashable { case owned, declined, busy }

  struct Subscriber: Hashable {
    var conduit: ConduitModel
    var lane = SubjectLane.open
    var deliveringThread = 0
    var alive = true
    var inside = 0
    var log: [Int] = []
    var completions = 0
    var cancelReturned = false
    var startedAfterCancel = 0
  }

  struct ThreadState: Hashable {
    var next = 0
    var frames: [Frame] = []
    var finished = false
  }

  struct State: Hashable {
    var loneLane = SubjectLane.closed
    var loneLaneConduit = -1
    var subscribers: [Subscriber]
    var list = [0, 1]
    var completed = false
    var reentrantPending: Bool
    /// The thread whose delivery of the trigger sent the re-entrant value.
    var reentrantSender: Int?
    var violation: String?
    var threads: [ThreadState]
  }

  var initialState: State {
    var subscriber = Subscriber(conduit: ConduitModel(demand: .unlimited))
    // Both own lanes opened when the second subscriber's demand arrived: each holds its
    // subscriber's ownership.
    subscriber.conduit.state.isDelivering = true
    return State(
      subscribers: [subscriber, subscriber], reentrantPending: reentrant != nil,
      threads: Array(repeating: ThreadState(), count: roles.count))
  }

  // MARK: Steps

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    if state.threads[thread].finished { return nil }
    guard let frame = state.threads[thread].frames.last else { return start(thread, state) }
    var s = state
    let label = step(thread, frame, &s)
    if label.isEmpty { return [] }
    return [(label, s)]
  }

  private func start(_ thread: Int, _ state: State) -> [(label: String, next: State)] {
    var s = state
    switch roles[thread] {
    case .sender(let values):
      guard s.threads[thread].next < values.count else {
        s.threads[thread].finished = true
        return [("done", s)]
      }
      let value = values[s.threads[thread].next]
      s.threads[thread].next += 1
      s.threads[thread].frames = [.send(value: value, pc: 0)]
      return [("send \(value)", s)]
    case .cancelFirst:
      // `cancelSpecialized` of the first subscriber.
      closeLoneLane(&s)
      closeOwnLane(0, &s)
      if s.subscribers[0].conduit.state.cancel() {
        s.subscribers[0].alive = false
        _ = s.subscribers[0].conduit.state.takePending()
        remove(0, &s)
      }
      s.subscribers[0].cancelReturned = true
      s.threads[thread].finished = true
      return [("cancel the first subscriber", s)]
    case .completer:
      // `send(completion:)`: close every lane, complete, deliver to those it may.
      closeLoneLane(&s)
      for index in s.list { closeOwnLane(index, &s) }
      s.completed = true
      var stillListed: [Int] = []
      for index in s.list {
        if s.subscribers[index].conduit.state.complete() {
          s.subscribers[index].alive = false
          s.threads[thread].frames.append(.completion(conduit: index, pc: 0))
        } else if s.subscribers[index].conduit.state.isCompletionPending
          || s.subscribers[index].conduit.state.isDelivering
        {
          stillListed.append(index)
        }
      }
      s.list = stillListed
      if s.threads[thread].frames.isEmpty { s.threads[thread].finished = true }
      s.threads[thread].frames.reverse()  // deliver in list order
      return [("send(completion:)", s)]
    }
  }

  /// Takes one step of `frame` (the thread's innermost); returns its label, or "" if the
  /// thread waits.
  private func step(_ thread: Int, _ frame: Frame, _ s: inout State) -> String {
    func replace(_ frame: Frame) { s.threads[thread].frames[s.threads[thread].frames.count - 1] = frame }
    func pop() {
      s.threads[thread].frames.removeLast()
      if s.threads[thread].frames.isEmpty, roles[thread] == .completer { s.threads[thread].finished = true }
    }
    func push(_ frame: Frame) { s.threads[thread].frames.append(frame) }

    switch frame {
    case .send(let value, let pc):
      if pc == 0 {
        // `sendThroughLane`: open → owned.
        if s.loneLane == SubjectLane.open {
          s.loneLane = SubjectLane.owned
          replace(.loneLane(value: value, conduit: s.loneLaneConduit, pc: 0))
          return "lone lane open → owned"
        }
        replace(.send(value: value, pc: 1))
        return "lone lane not open"
      }
      // `sendThroughLock`.
      closeLoneLane(&s)
      if s.completed || s.list.isEmpty {
        pop()
        return "send \(value): nobody (lock)"
      }
      if s.list.count == 1 {
        let conduit = s.list[0]
        switch offer(value, to: conduit, thread, &s, closingLanes: false) {
        case .owned: replace(.one(value: value, conduit: conduit, pc: 0))
        case .declined: pop()
        case .busy: replace(.waitClaim(value: value, conduit: conduit))
        }
        return "send \(value) to one (lock)"
      }
      // `offerFirst`: unless the first subscriber's own lane is open.
      let first = s.list[0]
      let offered: Offer? =
        s.subscribers[first].lane == SubjectLane.open ? nil : offer(value, to: first, thread, &s, closingLanes: true)
      replace(.many(value: value, snapshot: s.list, index: 0, finishing: nil, first: offered, pc: .top))
      return "send \(value) to \(s.list) (lock)"

    case .loneLane(let value, let conduit, let pc):
      switch pc {
      case 0:
        s.subscribers[conduit].deliveringThread = thread + 1
        replace(.loneLane(value: value, conduit: conduit, pc: 1))
        return "note thread"
      case 1:
        enter(value, conduit, thread, &s)
        replace(.loneLane(value: value, conduit: conduit, pc: 2))
        return "enter \(value) → \(conduit) (lone lane)"
      case 2:
        if let label = nestedSend(value, conduit, thread, &s) { return label }
        s.subscribers[conduit].inside -= 1
        replace(.loneLane(value: value, conduit: conduit, pc: 3))
        return "return from \(value) → \(conduit)"
      case 3:
        // `forgetDeliveringThread` before the lane is handed back.
        s.subscribers[conduit].deliveringThread = 0
        replace(.loneLane(value: value, conduit: conduit, pc: 4))
        return "clear delivering thread"
      default:
        if s.loneLane == SubjectLane.owned {
          s.loneLane = SubjectLane.open
          pop()
          return "lone lane owned → open"
        }
        s.subscribers[conduit].deliveringThread = thread + 1
        replace(.finish(conduit: conduit, lane: .lone, pc: 0))
        return "lone lane closed meanwhile"
      }

    case .many(let value, let snapshot, let index, let finishing, let first, let pc):
      func go(_ index: Int, _ finishing: Int?, _ first: Offer?, _ pc: ManyPC) {
        replace(.many(value: value, snapshot: snapshot, index: index, finishing: finishing, first: first, pc: pc))
      }
      switch pc {
      case .top:
        guard index < snapshot.count else {
          if let finishing {
            replace(.finish(conduit: finishing, lane: .none, pc: 0))
          } else {
            pop()
          }
          return "end of the list"
        }
        let conduit = snapshot[index]
        if let first {
          return handle(first, value, conduit, index, replace: go, push: push)
        }
        if s.subscribers[conduit].lane == SubjectLane.open {
          // Seen open (a relaxed load): finish the previous delivery first, then the lane.
          go(index, nil, nil, .tryOwnLane)
          if let finishing { push(.finish(conduit: finishing, lane: .none, pc: 0)) }
          return "\(conduit)'s own lane seen open"
        }
        go(index, finishing, nil, .lockSection)
        return "\(conduit)'s own lane seen closed"
      case .tryOwnLane:
        let conduit = snapshot[index]
        if s.subscribers[conduit].lane == SubjectLane.open {
          s.subscribers[conduit].lane = SubjectLane.owned
          go(index + 1, nil, nil, .top)
          push(.ownLane(value: value, conduit: conduit, pc: 0))
          return "\(conduit)'s own lane open → owned"
        }
        go(index, nil, nil, .lockSection)
        return "\(conduit)'s own lane closed meanwhile"
      case .lockSection:
        let conduit = snapshot[index]
        if let finishing {
          guard s.subscribers[finishing].conduit.state.finishDelivery(returning: .none) else {
            // Something happened during that delivery: see to it, then this subscriber.
            go(index, nil, nil, .top)
            push(.finish(conduit: finishing, lane: .none, pc: 1))
            return "finish \(finishing): events (lock)"
          }
          s.subscribers[finishing].deliveringThread = 0
          openLaneIfEligible(finishing, &s)
        }
        let offered = offer(value, to: conduit, thread, &s, closingLanes: true)
        _ = handle(offered, value, conduit, index, replace: go, push: push)
        return "finish \(finishing.map(String.init) ?? "-"), offer \(value) to \(conduit) (lock)"
      case .afterCall:
        go(index + 1, snapshot[index], nil, .top)
        return "returned"
      }

    case .ownLane(let value, let conduit, let pc):
      switch pc {
      case 0:
        s.subscribers[conduit].deliveringThread = thread + 1
        replace(.ownLane(value: value, conduit: conduit, pc: 1))
        return "note thread"
      case 1:
        enter(value, conduit, thread, &s)
        replace(.ownLane(value: value, conduit: conduit, pc: 2))
        return "enter \(value) → \(conduit) (own lane)"
      case 2:
        if let label = nestedSend(value, conduit, thread, &s) { return label }
        s.subscribers[conduit].inside -= 1
        replace(.ownLane(value: value, conduit: conduit, pc: 3))
        return "return from \(value) → \(conduit)"
      case 3:
        // `forgetDeliveringThread` before the lane is handed back.
        s.subscribers[conduit].deliveringThread = 0
        replace(.ownLane(value: value, conduit: conduit, pc: 4))
        return "clear delivering thread"
      default:
        if s.subscribers[conduit].lane == SubjectLane.owned {
          s.subscribers[conduit].lane = SubjectLane.open
          pop()
          return "\(conduit)'s own lane owned → open"
        }
        s.subscribers[conduit].deliveringThread = thread + 1
        replace(.finish(conduit: conduit, lane: .own, pc: 0))
        return "\(conduit)'s own lane closed meanwhile"
      }

    case .call(let value, let conduit, let pc):
      if pc == 0 {
        enter(value, conduit, thread, &s)
        replace(.call(value: value, conduit: conduit, pc: 1))
        return "enter \(value) → \(conduit)"
      }
      if let label = nestedSend(value, conduit, thread, &s) { return label }
      s.subscribers[conduit].inside -= 1
      pop()
      return "return from \(value) → \(conduit)"

    case .one(let value, let conduit, let pc):
      if pc == 0 {
        replace(.one(value: value, conduit: conduit, pc: 1))
        push(.call(value: value, conduit: conduit, pc: 0))
        return "deliver \(value) → \(conduit)"
      }
      replace(.finish(conduit: conduit, lane: .none, pc: 0))
      return "then finish"

    case .finish(let conduit, let lane, let pc):
      if pc == 0 {
        // `finishOwnedDelivery`.
        switch lane {
        case .none: break
        case .lone: s.loneLane = SubjectLane.closed
        case .own: s.subscribers[conduit].lane = SubjectLane.closed
        }
        if s.subscribers[conduit].conduit.state.finishDelivery(returning: .none) {
          s.subscribers[conduit].deliveringThread = 0
          openLaneIfEligible(conduit, &s)
          pop()
        } else {
          replace(.finish(conduit: conduit, lane: .none, pc: 1))
        }
        return "finish delivery to \(conduit) (lock)"
      }
      // `continueDeliveryAfterEvents`: one `nextStep` per critical section.
      let next = s.subscribers[conduit].conduit.state.didDeliver(returning: .none)
      if !s.subscribers[conduit].conduit.state.isDelivering { s.subscribers[conduit].deliveringThread = 0 }
      switch next {
      case .deliver(let queued):
        push(.call(value: queued, conduit: conduit, pc: 0))
      case .deliverCurrentValue:
        s.violation = "a subject without a current value owed one"
      case .idle:
        openLaneIfEligible(conduit, &s)
        pop()
      case .complete:
        s.subscribers[conduit].alive = false
        remove(conduit, &s)
        replace(.completion(conduit: conduit, pc: 0))
      case .cancelled:
        s.subscribers[conduit].alive = false
        _ = s.subscribers[conduit].conduit.state.takePending()
        remove(conduit, &s)
        pop()
      }
      return "next step for \(conduit) (lock)"

    case .completion(let conduit, let pc):
      if pc == 0 {
        if s.subscribers[conduit].inside > 0 { s.violation = "\(conduit)'s completion during another event" }
        if s.subscribers[conduit].completions > 0 { s.violation = "\(conduit) completed twice" }
        s.subscribers[conduit].completions += 1
        s.subscribers[conduit].inside += 1
        replace(.completion(conduit: conduit, pc: 1))
        return "enter completion → \(conduit)"
      }
      s.subscribers[conduit].inside -= 1
      pop()
      return "return from completion → \(conduit)"

    case .waitClaim(let value, let conduit):
      let before = s
      if s.subscribers[conduit].conduit.state.isDelivering {
        closeLoneLane(&s)
        closeOwnLane(conduit, &s)
      }
      let isOwner = s.subscribers[conduit].deliveringThread == thread + 1
      switch s.subscribers[conduit].conduit.state.claimReserved(
        byOwnerThread: isOwner, queue: { $0.append(value) })
      {
      case .owned:
        s.subscribers[conduit].deliveringThread = thread + 1
        replace(.one(value: value, conduit: conduit, pc: 0))
      case .done:
        pop()
      case .reserved:
        if s == before { return "" }
      }
      return "claim \(value) → \(conduit) (lock)"
    }
  }

  /// What `SubjectConduit.deliver(_:toEach:first:of:)` does with an offer's outcome.
  private func handle(
    _ offered: Offer, _ value: Int, _ conduit: Int, _ index: Int, replace: (Int, Int?, Offer?, ManyPC) -> Void,
    push: (Frame) -> Void
  ) -> String {
    switch offered {
    case .owned:
      replace(index, nil, nil, .afterCall)
      push(.call(value: value, conduit: conduit, pc: 0))
    case .declined:
      replace(index + 1, nil, nil, .top)
    case .busy:
      replace(index + 1, nil, nil, .top)
      push(.waitClaim(value: value, conduit: conduit))
    }
    return "offered \(value) to \(conduit): \(offered)"
  }

  // MARK: The library's sections

  private func offer(_ value: Int, to conduit: Int, _ thread: Int, _ s: inout State, closingLanes: Bool) -> Offer {
    if closingLanes, s.subscribers[conduit].conduit.state.isDelivering {
      closeLoneLane(&s)
      closeOwnLane(conduit, &s)
    }
    let isOwner = s.subscribers[conduit].deliveringThread == thread + 1
    switch s.subscribers[conduit].conduit.state.offer(value, keepsCurrentValue: false, byOwnerThread: isOwner) {
    case .owned:
      s.subscribers[conduit].deliveringThread = thread + 1
      return .owned
    case .done: return .declined
    case .reserved: return .busy
    }
  }

  private func closeLoneLane(_ s: inout State) {
    if s.loneLane == SubjectLane.open {
      s.loneLane = SubjectLane.closed
      s.subscribers[s.loneLaneConduit].conduit.state.isDelivering = false
    } else if s.loneLane == SubjectLane.owned {
      s.loneLane = SubjectLane.ownedClosed
    }
  }

  private func closeOwnLane(_ conduit: Int, _ s: inout State) {
    if s.subscribers[conduit].lane == SubjectLane.open {
      s.subscribers[conduit].lane = SubjectLane.closed
      s.subscribers[conduit].conduit.state.isDelivering = false
    } else if s.subscribers[conduit].lane == SubjectLane.owned {
      s.subscribers[conduit].lane = SubjectLane.ownedClosed
    }
  }

  /// `SubjectStorage.remove`: a subscriber left alone loses its own lane.
  private func remove(_ conduit: Int, _ s: inout State) {
    s.list.removeAll { $0 == conduit }
    if s.list.count == 1 { closeOwnLane(s.list[0], &s) }
  }

  private func openLaneIfEligible(_ conduit: Int, _ s: inout State) {
    guard s.subscribers[conduit].conduit.state.isLaneEligible, !s.completed else { return }
    if s.list.count == 1 {
      guard s.list[0] == conduit, s.loneLane == SubjectLane.closed else { return }
      s.loneLaneConduit = conduit
      s.subscribers[conduit].conduit.state.isDelivering = true
      s.loneLane = SubjectLane.open
    } else if s.list.count > 1, s.subscribers[conduit].lane == SubjectLane.closed {
      s.subscribers[conduit].conduit.state.isDelivering = true
      s.subscribers[conduit].lane = SubjectLane.open
    }
  }

  /// The thread that sent `value`: its sender role's, or, for the re-entrant value, the
  /// thread that delivered the trigger (the nested send runs there).
  private func sender(of value: Int, _ s: State) -> Int? {
    if let reentrant, value == reentrant.value { return s.reentrantSender }
    return roles.firstIndex { if case .sender(let values) = $0 { values.contains(value) } else { false } }
  }

  private func enter(_ value: Int, _ conduit: Int, _ thread: Int, _ s: inout State) {
    let name = "\(value) → subscriber \(conduit)"
    // Apple's subjects deliver a value on the thread that sends it, before `send` returns.
    if let sender = sender(of: value, s), sender != thread {
      s.violation = "thread \(sender)'s \(name) was delivered by thread \(thread)"
    }
    if s.subscribers[conduit].inside > 0 { s.violation = "\(name) arrived during another event" }
    if !s.subscribers[conduit].alive { s.violation = "\(name) was delivered after its release" }
    if s.subscribers[conduit].completions > 0 { s.violation = "\(name) arrived after the completion" }
    if s.subscribers[conduit].log.contains(value) { s.violation = "\(name) was delivered twice" }
    if s.subscribers[conduit].cancelReturned { s.subscribers[conduit].startedAfterCancel += 1 }
    if s.subscribers[conduit].startedAfterCancel > 1 { s.violation = "a second value started after cancel()" }
    s.subscribers[conduit].inside += 1
    s.subscribers[conduit].log.append(value)
  }

  private func nestedSend(_ value: Int, _ conduit: Int, _ thread: Int, _ s: inout State) -> String? {
    guard let reentrant, s.reentrantPending, conduit == 0, value == reentrant.trigger else { return nil }
    s.reentrantPending = false
    s.reentrantSender = thread
    s.threads[thread].frames.append(.send(value: reentrant.value, pc: 0))
    return "re-entrant send \(reentrant.value)"
  }

  // MARK: Checks

  func violation(in state: State) -> String? { state.violation }

  func finalViolation(in state: State) -> String? {
    let ends = roles.contains(.completer)
    for (index, subscriber) in state.subscribers.enumerated() {
      if subscriber.inside != 0 { return "finished inside a call to \(index)" }
      let cancelled = index == 0 && roles.contains(.cancelFirst)
      for (thread, role) in roles.enumerated() {
        guard case .sender(let values) = role else { continue }
        var expected = values
        if let reentrant, thread == 0, let at = values.firstIndex(of: reentrant.trigger), index == 0 {
          expected.insert(reentrant.value, at: at + 1)
        }
        let delivered = subscriber.log.filter(expected.contains)
        if ends || cancelled {
          guard delivered == Array(expected.prefix(delivered.count)) else {
            return "subscriber \(index): thread \(thread)'s values arrived as \(delivered), not a prefix of \(expected)"
          }
        } else if delivered != expected {
          return "subscriber \(index): thread \(thread)'s values arrived as \(delivered), expected \(expected)"
        }
      }
      if let reentrant, !ends, !cancelled, state.reentrantPending == false,
        subscriber.log.filter({ $0 == reentrant.value }).count != 1
      {
        return "subscriber \(index) received the re-entrant value \(reentrant.value) not once: \(subscriber.log)"
      }
      if ends, !cancelled, subscriber.completions != 1 { return "subscriber \(index) was not completed" }
    }
    return nil
  }
}
