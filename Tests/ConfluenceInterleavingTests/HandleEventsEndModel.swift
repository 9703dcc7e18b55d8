/// `HandleEventsSubscription`'s `hasEnded` (the flag the value path reads, twice, instead of
/// taking the lock), with the subscription around it: one thread subscribes it and hands it
/// downstream, whose `receive(subscription:)` requests `.max(1)` at once (`receiveRequest`
/// reports it); an upstream on another thread sends a value whenever it has demand, then
/// its completion; each value is reported to `receiveOutput`, passed on, and the demand
/// downstream returns for it (`.max(1)`, when `returnsDemand`) reported to
/// `receiveRequest`; another thread may request `.max(1)` (`requestsFromAnotherThread`),
/// and another may cancel (`receiveCancel`).
///
/// Each critical section (`receive(subscription:)`, `request(_:)`, `receive(completion:)`,
/// `cancel()`) is one step, each load of `hasEnded` on the value path is one step, and each
/// closure call and each call into downstream or upstream is a step of its own.
///
/// What it checks (Apple's rules for the closures, and the contract downstream): the
/// subscription ends once — `receiveCompletion` and an ending `receiveCancel` run at most
/// once between them; a value whose `receive(_:)` starts after an effective `cancel()`
/// returned calls neither `receiveOutput` nor `receiveRequest`, nor does a `request(_:)`
/// that starts then; downstream sees no value
/// twice, none during another event or after the completion, at most one completion, and
/// at most one value starting after the cancel returned; with no cancel every value reaches
/// `receiveOutput` and downstream, in order, then the completion reaches both.
///
/// Memory: sequentially consistent. The flag is stored only inside the lock, whose release
/// drains the store buffer before another thread can learn that the section ran.
///
/// The mutation that shows the model can fail (``callsOutputUnchecked``, checked by
/// `HandleEventsEndInterleavingTests.test_outputBeforeTheEndIsRead_isCaught`): calling
/// `receiveOutput` before the first load of `hasEnded` instead of after it (the value path's
/// first read no longer guards it). Both configurations with a cancel then fail with "receiveOutput ran for 1, whose
/// receive(_:) started after cancel() returned", `test_threeValues_returnedDemand_cancel`
/// after `T0: accept (lock) → T0: downstream requests (lock) → T0: receiveRequest → T0:
/// upstream.request 1 → T2: cancel (lock) → T2: receiveCancel → T1: offer 1 → T2:
/// upstream.cancel → T2: cancel returns → T1: receive(1) starts → T1: receiveOutput(1)`.
struct HandleEventsEndModel: InterleavingModel {
  /// The values upstream sends (distinct), then its completion.
  let values: [Int]
  /// Whether downstream returns `.max(1)` for each value (else `.none`).
  let returnsDemand: Bool
  /// Whether a thread of its own requests `.max(1)`.
  let requestsFromAnotherThread: Bool
  /// Whether a last thread cancels.
  let cancels: Bool
  /// The mutation: `receiveOutput` runs before `hasEnded` is read.
  var callsOutputUnchecked = false

  var threadCount: Int { 2 + (requestsFromAnotherThread ? 1 : 0) + (cancels ? 1 : 0) }

  // MARK: State

  enum Status: Hashable {
    case awaitingSubscription
    case subscribed
    case terminal
  }

  enum SenderPC: Hashable {
    case offer
    case call(Int)
    case firstRead(Int)
    case receiveOutput(Int)
    case enter(Int)
    case exit(Int)
    case secondRead(Int)
    case receiveRequest(Int)
    case completionSection
    case receiveCompletion
    case completionEnter
    case completionExit
    case done
  }

  struct State: Hashable {
    var status = Status.awaitingSubscription
    var hasEnded = false
    /// Demand the upstream was asked for (or was returned) and has not met.
    var upstreamDemand = 0
    var upstreamCancels = 0
    var downstreamHasSubscription = false
    var downstream = DownstreamRecord()
    /// Closure calls.
    var outputs: [Int] = []
    var endings = 0
    var completionClosures = 0
    var violation: String?
    // The subscribing thread: 0 accept, 1 downstream requests (lock), 2 receiveRequest,
    // 3 upstream.request, 4 done.
    var subscriberPC = 0
    var requestIsLive = false
    // The upstream's thread.
    var senderPC = SenderPC.offer
    var nextValue = 0
    var completionSent = false
    /// The value being received started after an effective cancel had returned.
    var valueStartedAfterCancel = false
    // The cancelling thread: 0 section, 1 receiveCancel, 2 upstream.cancel, 3 return, 4 done.
    var cancelPC = 0
    // The requesting thread: 0 section, 1 receiveRequest, 2 upstream.request, 3 done.
    var requesterPC = 0
    var requestStartedAfterCancel = false
    var cancelEnds = false
    var cancelIsLive = false
  }

  var initialState: State { State() }

  // MARK: Steps

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    switch thread {
    case 0: return subscriberStep(state)
    case 1: return senderStep(state)
    case 2 where requestsFromAnotherThread: return requesterStep(state)
    default: return cancellerStep(state)
    }
  }

  /// `request(.max(1))` from a thread of its own, once downstream has the subscription.
  private func requesterStep(_ state: State) -> [(label: String, next: State)]? {
    var s = state
    switch s.requesterPC {
    case 0:
      guard s.downstreamHasSubscription else { return [] }
      s.requestStartedAfterCancel = s.downstream.cancelReturned
      s.requesterPC = s.hasEnded ? 3 : 1
      return [("request 1 (lock)", s)]
    case 1:
      if s.requestStartedAfterCancel { s.violation = "receiveRequest ran for a request made after cancel() returned" }
      s.requesterPC = 2
      return [("receiveRequest (other thread)", s)]
    case 2:
      if s.status == .subscribed { s.upstreamDemand += 1 }
      s.requesterPC = 3
      return [("upstream.request 1 (other thread)", s)]
    default:
      return nil
    }
  }

  private func subscriberStep(_ state: State) -> [(label: String, next: State)]? {
    var s = state
    switch s.subscriberPC {
    case 0:
      // `receiveSubscription` runs first (no checks here), then the accepting section.
      if s.status == .awaitingSubscription { s.status = .subscribed }
      s.subscriberPC = 1
      return [("accept (lock)", s)]
    case 1:
      // downstream.receive(subscription:) requests at once: `request(_:)`'s section.
      s.downstreamHasSubscription = true
      s.requestIsLive = !s.hasEnded
      s.subscriberPC = s.requestIsLive ? 2 : 4
      return [("downstream requests (lock)", s)]
    case 2:
      s.subscriberPC = 3
      return [("receiveRequest", s)]
    case 3:
      if s.status == .subscribed { s.upstreamDemand += 1 }
      s.subscriberPC = 4
      return [("upstream.request 1", s)]
    default:
      return nil
    }
  }

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
        let value = values[s.nextValue]
        s.senderPC = .call(value)
        return [("offer \(value)", s)]
      }
      guard !s.completionSent else {
        s.senderPC = .done
        return [("done", s)]
      }
      s.completionSent = true
      s.senderPC = .completionSection
      return [("offer the completion", s)]
    case .call(let value):
      // The upstream decided to send before it knew of a cancel; the call may start after.
      s.valueStartedAfterCancel = s.downstream.cancelReturned
      s.senderPC = callsOutputUnchecked ? .receiveOutput(value) : .firstRead(value)
      return [("receive(\(value)) starts", s)]
    case .firstRead(let value):
      s.senderPC = s.hasEnded ? .enter(value) : .receiveOutput(value)
      return [("hasEnded? \(s.hasEnded ? "yes" : "no")", s)]
    case .receiveOutput(let value):
      if s.valueStartedAfterCancel {
        s.violation = "receiveOutput ran for \(value), whose receive(_:) started after cancel() returned"
      }
      s.outputs.append(value)
      s.senderPC = .enter(value)
      return [("receiveOutput(\(value))", s)]
    case .enter(let value):
      if !s.downstreamHasSubscription { s.violation = "\(value) arrived before the subscription" }
      s.downstream.enter(value)
      s.senderPC = .exit(value)
      return [("enter \(value)", s)]
    case .exit(let value):
      s.downstream.exit()
      guard returnsDemand else {
        s.nextValue += 1
        s.senderPC = .offer
        return [("return .none", s)]
      }
      s.upstreamDemand += 1  // `receive(_:)` returns it to upstream
      s.senderPC = .secondRead(value)
      return [("return .max(1)", s)]
    case .secondRead(let value):
      s.senderPC = s.hasEnded ? .offer : .receiveRequest(value)
      if s.hasEnded { s.nextValue += 1 }
      return [("hasEnded? \(s.hasEnded ? "yes" : "no")", s)]
    case .receiveRequest(let value):
      if s.valueStartedAfterCancel {
        s.violation = "receiveRequest ran for \(value), whose receive(_:) started after cancel() returned"
      }
      s.nextValue += 1
      s.senderPC = .offer
      return [("receiveRequest", s)]
    case .completionSection:
      // `receive(completion:)`'s section: the first completion ends the subscription.
      if s.hasEnded {
        s.senderPC = .completionEnter
      } else {
        s.hasEnded = true
        s.status = .terminal
        s.senderPC = .receiveCompletion
      }
      return [("receive(completion:) (lock)", s)]
    case .receiveCompletion:
      s.endings += 1
      s.completionClosures += 1
      s.senderPC = .completionEnter
      return [("receiveCompletion", s)]
    case .completionEnter:
      // Every completion is passed on, as Apple's.
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
      if s.hasEnded {
        s.cancelIsLive = false
      } else if s.status != .subscribed {
        s.cancelIsLive = true  // reported, not remembered
      } else {
        s.hasEnded = true
        s.status = .terminal
        s.cancelIsLive = true
        s.cancelEnds = true
      }
      s.cancelPC = s.cancelIsLive ? 1 : 3
      return [("cancel (lock)", s)]
    case 1:
      if s.cancelEnds { s.endings += 1 }
      s.cancelPC = s.cancelEnds ? 2 : 3
      return [("receiveCancel", s)]
    case 2:
      s.upstreamCancels += 1
      s.cancelPC = 3
      return [("upstream.cancel", s)]
    case 3:
      // Effective: it ended the subscription, or found it ended.
      if s.cancelEnds || !s.cancelIsLive { s.downstream.cancelReturned = true }
      s.cancelPC = 4
      return [("cancel returns", s)]
    default:
      return nil
    }
  }

  // MARK: Checks

  func violation(in state: State) -> String? {
    if let violation = state.violation ?? state.downstream.violation { return violation }
    if state.endings > 1 { return "the subscription ended twice (receiveCompletion and receiveCancel)" }
    return nil
  }

  func finalViolation(in state: State) -> String? {
    if state.downstream.inside != 0 { return "finished inside a call" }
    guard state.downstream.log == Array(values.prefix(state.downstream.log.count)) else {
      return "values arrived as \(state.downstream.log), not a prefix of \(values)"
    }
    if !cancels {
      if state.downstream.log != values { return "values arrived as \(state.downstream.log), expected \(values)" }
      if state.outputs != values { return "receiveOutput saw \(state.outputs), expected \(values)" }
      if state.downstream.completions != 1 || state.completionClosures != 1 {
        return "the completion reached downstream \(state.downstream.completions) and receiveCompletion "
          + "\(state.completionClosures) times, expected once each"
      }
    }
    return nil
  }
}
