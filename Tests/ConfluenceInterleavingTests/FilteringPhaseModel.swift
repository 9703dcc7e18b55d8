/// `FilteringSubscription`'s `phase` (the byte the value path reads instead of taking the
/// lock that guards `status`), with every step of the subscription around it: one thread
/// subscribes it and hands it downstream, whose `receive(subscription:)` requests one value
/// at once; an upstream on another thread (a subject, say) sends a value whenever it has
/// demand, then its completion; another thread may request more (`laterDemand`), and
/// another may cancel. The logic passes values on and, if
/// `finishesAt` is set, ends the stream at that value (as `prefix(while:)` does: the
/// operator's own termination, from the value path).
///
/// Each critical section of `FilteringSubscription` (`receive(subscription:)`,
/// `request(_:)`, `receive(completion:)`, `terminate(with:)`, `cancel()`) is one step; the
/// value path's load of `phase` is one step; each call out (downstream's
/// `receive(subscription:)` and its request, a value or the completion entering and
/// returning, the upstream's `request` and `cancel`) is a step of its own.
///
/// What it checks: a value before the subscription never reaches a strict logic (it
/// traps); no value reaches downstream before its subscription, twice, during another
/// event or after the completion; at most one completion, none once a cancel took the
/// subscription; after an effective `cancel()` returned (one that found the subscription,
/// or one a strict logic remembers from before it), at most one value starts; the upstream
/// is cancelled at most once; with no cancel every value up to the finishing one arrives,
/// in order, and then exactly one completion.
///
/// Memory: sequentially consistent. Every store of `phase` is inside the lock, whose
/// release (a read-modify-write on x86-64) drains the store buffer before another thread
/// can take the lock or learn that the section has run, so store buffers add no outcome.
///
/// The mutation that shows the model can fail (``publishesLiveLate``, checked by
/// `FilteringPhaseInterleavingTests.test_liveStoredAfterDownstreamsRequest_isCaught`):
/// storing `live` once `downstream.receive(subscription:)` has returned instead of inside the
/// accepting section (the store moved from `accept` to a step after `upstream.request 1`).
/// Every configuration then fails: `test_strict_noCancel` with "a strict logic received a value before its
/// subscription (trap)" after `T0: accept → T0: downstream requests → T2: request 2 (lock) →
/// T2: upstream.request 2 → T1: offer 1 → T1: read phase (awaiting)`, and
/// `test_quiet_earlyCancelForgotten` with "values arrived as [3], not a prefix of
/// [1, 2, 3]": values an upstream sends as soon as it has demand are lost.
struct FilteringPhaseModel: InterleavingModel {
  /// Which edges the logic has (`FilteringEdges`): `strict` traps on a value before the
  /// subscription and remembers a cancel that comes before it; `quiet` does neither.
  enum Edges: Hashable {
    case strict
    case quiet
  }

  let edges: Edges
  /// The values the upstream sends, in order (distinct).
  let values: [Int]
  /// The logic finishes the stream when it sees this value (not passed on).
  let finishesAt: Int?
  /// What a thread of its own requests, if any (after the subscribing thread's `.max(1)`).
  let laterDemand: Int?
  /// Whether a last thread cancels.
  let cancels: Bool
  /// The mutation: `live` is stored after downstream's `receive(subscription:)` returned.
  var publishesLiveLate = false

  var threadCount: Int { 2 + (laterDemand == nil ? 0 : 1) + (cancels ? 1 : 0) }

  // MARK: State

  enum Status: Hashable {
    case awaitingSubscription
    case subscribed
    case terminal
  }

  /// `FilteringSubscription.awaiting`, `.live`, `.ended`.
  static let awaiting: UInt8 = 0
  static let live: UInt8 = 1
  static let ended: UInt8 = 2

  enum SenderPC: Hashable {
    case offer
    case readPhase(Int)
    case enter(Int)
    case exit
    case terminateSection
    case cancelUpstreamAndComplete
    case completionSection
    case completionEnter
    case completionExit
    case done
  }

  struct State: Hashable {
    var status = Status.awaitingSubscription
    var phase = FilteringPhaseModel.awaiting
    /// Demand the upstream was asked for and has not met; how often it was cancelled.
    var upstreamDemand = 0
    var upstreamCancels = 0
    var downstreamHasSubscription = false
    var downstream = DownstreamRecord()
    /// A cancel's critical section found the subscription live and ended it.
    var cancelTookSubscription = false
    var violation: String?
    // The subscribing thread: 0 accept, 1 downstream requests, 2 upstream.request, 3 done;
    // 10: the subscription was refused and is cancelled.
    var subscriberPC = 0
    var requestTarget = false
    // The requesting thread: 0 `request(_:)`'s section, 1 upstream.request, 2 done.
    var requesterPC = 0
    var requesterTarget = false
    // The upstream's thread.
    var senderPC = SenderPC.offer
    var nextValue = 0
    var completionSent = false
    // The cancelling thread: 0 cancel's section, 1 upstream.cancel(), 2 return, 3 done.
    var cancelPC = 0
    var cancelIsEffective = false
  }

  var initialState: State { State() }

  // MARK: Steps

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    switch thread {
    case 0: return subscriberStep(state)
    case 1: return senderStep(state)
    case 2 where laterDemand != nil: return requesterStep(state)
    default: return cancellerStep(state)
    }
  }

  /// `request(laterDemand)` from a thread of its own.
  private func requesterStep(_ state: State) -> [(label: String, next: State)]? {
    guard let laterDemand else { return nil }
    var s = state
    switch s.requesterPC {
    case 0:
      // The requesting thread holds the subscription: downstream has received it (or, if
      // the subscription was refused, never will).
      guard s.downstreamHasSubscription else { return s.subscriberPC == 3 ? nil : [] }
      s.requesterTarget = s.status == .subscribed
      s.requesterPC = 1
      return [("request \(laterDemand) (lock)", s)]
    case 1:
      if s.requesterTarget { s.upstreamDemand += laterDemand }
      s.requesterPC = 2
      return [("upstream.request \(laterDemand)", s)]
    default:
      return nil
    }
  }

  /// `receive(subscription:)` on the subscribing thread, then downstream's request from
  /// inside its `receive(subscription:)`.
  private func subscriberStep(_ state: State) -> [(label: String, next: State)]? {
    var s = state
    switch s.subscriberPC {
    case 0:
      // The accepting section: `status.accept`, and `phase` = live in the same section.
      if s.status == .awaitingSubscription {
        s.status = .subscribed
        if !publishesLiveLate { s.phase = Self.live }
        s.subscriberPC = 1
        return [("accept", s)]
      }
      s.subscriberPC = 10
      return [("refuse (cancelled before)", s)]
    case 1:
      // downstream.receive(subscription:), which requests .max(1) at once: `request(_:)`'s
      // section.
      s.downstreamHasSubscription = true
      if s.status == .awaitingSubscription, edges == .strict {
        s.violation = "demand was requested before the subscription (trap)"
      }
      s.requestTarget = s.status == .subscribed
      s.subscriberPC = 2
      return [("downstream requests", s)]
    case 2:
      if s.requestTarget { s.upstreamDemand += 1 }
      s.subscriberPC = publishesLiveLate ? 4 : 3
      return [("upstream.request 1", s)]
    case 4:
      s.phase = Self.live
      s.subscriberPC = 3
      return [("phase = live (late)", s)]
    case 10:
      s.upstreamCancels += 1
      s.subscriberPC = 3
      return [("cancel the refused subscription", s)]
    default:
      return nil
    }
  }

  /// The upstream: each value once it has demand (none once it is cancelled), then the
  /// completion; each value through `receive(_:)`.
  private func senderStep(_ state: State) -> [(label: String, next: State)]? {
    var s = state
    switch s.senderPC {
    case .offer:
      if s.upstreamCancels > 0 {
        s.senderPC = .done
        return [("upstream cancelled: stops", s)]
      }
      if s.nextValue < values.count {
        guard s.upstreamDemand > 0 else { return [] }
        s.upstreamDemand -= 1
        s.senderPC = .readPhase(values[s.nextValue])
        return [("offer \(values[s.nextValue])", s)]
      }
      guard !s.completionSent else {
        s.senderPC = .done
        return [("done", s)]
      }
      s.completionSent = true
      s.senderPC = .completionSection
      return [("offer the completion", s)]
    case .readPhase(let value):
      // `receive(_:)`: one load of `phase`.
      switch s.phase {
      case Self.live:
        s.senderPC = value == finishesAt ? .terminateSection : .enter(value)
        return [("read phase (live)", s)]
      case Self.awaiting where edges == .strict:
        s.violation = "a strict logic received a value before its subscription (trap)"
        return [("read phase (awaiting)", s)]
      default:
        s.nextValue += 1
        s.senderPC = .offer
        return [("read phase (not live): drop \(value)", s)]
      }
    case .enter(let value):
      if !s.downstreamHasSubscription { s.violation = "\(value) arrived before the subscription" }
      s.downstream.enter(value)
      s.senderPC = .exit
      return [("enter \(value)", s)]
    case .exit:
      s.downstream.exit()
      s.nextValue += 1
      s.senderPC = .offer
      return [("return", s)]
    case .terminateSection:
      // `terminate(with:)`'s section: only a live subscription is ended.
      s.nextValue += 1
      if s.status == .subscribed {
        s.status = .terminal
        s.phase = Self.ended
        s.senderPC = .cancelUpstreamAndComplete
      } else {
        s.senderPC = .offer
      }
      return [("terminate (lock)", s)]
    case .cancelUpstreamAndComplete:
      s.upstreamCancels += 1
      s.senderPC = .completionEnter
      return [("upstream.cancel", s)]
    case .completionSection:
      // `receive(completion:)`'s section.
      if s.status == .subscribed {
        s.status = .terminal
        s.phase = Self.ended
        s.senderPC = .completionEnter
      } else {
        s.senderPC = .done
      }
      return [("receive(completion:) (lock)", s)]
    case .completionEnter:
      if s.cancelTookSubscription { s.violation = "a completion after a cancel had ended the subscription" }
      s.downstream.enterCompletion()
      s.senderPC = .completionExit
      return [("enter the completion", s)]
    case .completionExit:
      s.downstream.exit()
      s.senderPC = .offer
      return [("return from the completion", s)]
    case .done:
      return nil
    }
  }

  private func cancellerStep(_ state: State) -> [(label: String, next: State)]? {
    var s = state
    switch s.cancelPC {
    case 0:
      // `cancel()`'s section.
      switch s.status {
      case .subscribed:
        s.phase = Self.ended
        s.status = .terminal
        s.cancelTookSubscription = true
        s.cancelIsEffective = true
        s.cancelPC = 1
      case .awaitingSubscription:
        if edges == .strict {
          s.phase = Self.ended
          s.status = .terminal
          s.cancelIsEffective = true
        }
        s.cancelPC = 2
      case .terminal:
        s.cancelIsEffective = true
        s.cancelPC = 2
      }
      return [("cancel (lock)", s)]
    case 1:
      s.upstreamCancels += 1
      s.cancelPC = 2
      return [("upstream.cancel", s)]
    case 2:
      if s.cancelIsEffective { s.downstream.cancelReturned = true }
      s.cancelPC = 3
      return [("cancel returns", s)]
    default:
      return nil
    }
  }

  // MARK: Checks

  func violation(in state: State) -> String? {
    if let violation = state.violation ?? state.downstream.violation { return violation }
    if state.upstreamCancels > 1 { return "the upstream was cancelled twice" }
    return nil
  }

  func finalViolation(in state: State) -> String? {
    if state.downstream.inside != 0 { return "finished inside a call" }
    let passed = finishesAt.map { stop in Array(values.prefix { $0 != stop }) } ?? values
    guard state.downstream.log == Array(passed.prefix(state.downstream.log.count)) else {
      return "values arrived as \(state.downstream.log), not a prefix of \(passed)"
    }
    if !cancels {
      if state.downstream.log != passed { return "values arrived as \(state.downstream.log), expected \(passed)" }
      if state.downstream.completions != 1 { return "\(state.downstream.completions) completions, expected 1" }
    }
    return nil
  }
}
