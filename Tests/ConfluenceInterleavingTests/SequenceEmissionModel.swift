/// `SequenceSubscription` (`Publishers.Sequence`'s subscription): the emitting loop's
/// lock-free check of `isCancelled` before each value, with the lock-guarded hand-over of
/// emission between requesting threads around it. Each thread in `requests` calls
/// `request(_:)` once; whichever finds no thread emitting emits (the `isEmitting` claim,
/// taking the iterator and the demand, the loop, parking the iterator or finishing), and a
/// request that finds another thread emitting only adds demand. The downstream returns
/// `returns[value]` (or none) from `receive(_:)`. A last thread may cancel.
///
/// Each of the subscription's critical sections (`requestSpecialized`'s, `emit`'s taking
/// of the iterator, the out-of-budget and the finishing sections, `cancel()`'s) is one
/// step; the load and the store of `isCancelled`, pulling the next element, and a value or
/// the completion entering and returning are steps of their own.
///
/// What it checks: never two events inside the subscriber at once, no value twice or out
/// of the sequence's order, never more values than demanded, one completion and only after
/// the last value, none after a cancel whose section came first; after `cancel()` returned,
/// at most one value starts; with no cancel, every value (the demand covers them all) and
/// then the completion arrive.
///
/// Memory: sequentially consistent. The flag orders nothing else (the loop only stops),
/// and whether a load after `cancel()` returned sees the store is coherence, which every
/// ordering gives; the critical sections are the lock's.
///
/// The mutations tried: checking `isCancelled` after each value instead of before it passes
/// (not kept) — the value delivered after `cancel()` returned is then the next one, still
/// at most one, which is all the promise says. Checking it once per emission, when the
/// emitter takes the iterator, instead of before each value (what an optimizer may do to a
/// plain `Bool` the loop reads: hoist the load; ``checksOncePerEmission``, checked by
/// `SequenceEmissionInterleavingTests.test_cancelCheckedOncePerEmission_isCaught`) fails `test_oneRequester_cancel`,
/// `test_twoRequesters_cancel` and `test_twoRequesters_reentrantDemand_cancel` with "a
/// second value (2) started after cancel() returned" after `T0: request 3 (lock) → T0:
/// take the iterator and 3 (lock) → T0: isCancelled? no → T1: isCancelled = true → T1:
/// cancel (lock) → T1: cancel returns → T0: pull 1 → T0: enter 1 → T0: return → T0: pull 2
/// → T0: enter 2`.
struct SequenceEmissionModel: InterleavingModel {
  /// The sequence's elements (distinct).
  let values: [Int]
  /// What each requesting thread asks for (one thread each).
  let requests: [Int]
  /// What the downstream returns from `receive(_:)` for a value (absent: nothing).
  let returns: [Int: Int]
  /// Whether a last thread cancels.
  let cancels: Bool
  /// The mutation: the emitter checks `isCancelled` once per emission, not per value.
  var checksOncePerEmission = false

  var threadCount: Int { requests.count + (cancels ? 1 : 0) }

  // MARK: State

  enum PC: Hashable {
    case request
    case take
    case checkCancelled
    case pull
    case enter(Int)
    case exit(Int)
    case outOfBudget
    case finish
    case completionEnter
    case completionExit
    case done
  }

  struct Emitter: Hashable {
    var pc = PC.request
    /// The emitting thread's locals: the index of `next` (the element pulled ahead) and
    /// the demand it may still meet.
    var index = 0
    var budget = 0
    /// Whether this emission has checked `isCancelled` (the mutation checks only once).
    var hasChecked = false
  }

  struct State: Hashable {
    // Guarded by the lock.
    var downstreamIsHeld = true
    var demand = 0
    var isEmitting = false
    /// Where the parked iterator stands (the subscription holds it while no thread emits).
    var parkedIndex: Int? = 0
    // The atomic flag.
    var isCancelled = false

    var emitters: [Emitter]
    var cancelPC = 0
    var cancelTookDownstream = false
    var downstream = DownstreamRecord()
    /// Demand the downstream has asked for (requests accepted and demand returned).
    var demanded = 0
    var violation: String?
  }

  var initialState: State {
    State(emitters: Array(repeating: Emitter(), count: requests.count))
  }

  // MARK: Steps

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    if thread == requests.count { return cancellerStep(state) }
    var s = state
    var me = s.emitters[thread]
    let label: String
    switch me.pc {
    case .request:
      // `requestSpecialized`'s section.
      label = "request \(requests[thread]) (lock)"
      if s.downstreamIsHeld {
        s.demand += requests[thread]
        s.demanded += requests[thread]
        if s.isEmitting {
          me.pc = .done
        } else {
          s.isEmitting = true
          me.pc = .take
        }
      } else {
        me.pc = .done
      }
    case .take:
      // `emit(to:)`'s first section: the iterator and the demand become this thread's.
      label = "take the iterator and \(s.demand) (lock)"
      me.index = s.parkedIndex ?? values.count
      s.parkedIndex = nil
      me.budget = s.demand
      s.demand = 0
      me.hasChecked = false
      me.pc = loop(me)
    case .checkCancelled:
      me.hasChecked = true
      label = "isCancelled? \(s.isCancelled ? "yes" : "no")"
      me.pc = s.isCancelled ? .done : .pull
    case .pull:
      // `element = next; next = iterator.next()`.
      let value = values[me.index]
      label = "pull \(value)"
      me.index += 1
      me.budget -= 1
      me.pc = .enter(value)
    case .enter(let value):
      label = "enter \(value)"
      s.downstream.enter(value)
      if s.downstream.log.count > s.demanded { s.violation = "\(value) arrived beyond the demand" }
      me.pc = .exit(value)
    case .exit(let value):
      label = "return"
      s.downstream.exit()
      let more = returns[value] ?? 0
      me.budget += more
      s.demanded += more
      me.pc = loop(me)
    case .outOfBudget:
      // Out of budget: take what was requested meanwhile, or park the iterator.
      label = "out of budget (lock)"
      if !s.downstreamIsHeld {
        s.isEmitting = false
        me.pc = .done
      } else if me.budget + s.demand == 0 {
        s.parkedIndex = me.index
        s.isEmitting = false
        me.pc = .done
      } else {
        me.budget += s.demand
        s.demand = 0
        me.pc = loop(me)
      }
    case .finish:
      label = "finish (lock)"
      s.isEmitting = false
      if s.downstreamIsHeld {
        s.downstreamIsHeld = false
        me.pc = .completionEnter
      } else {
        me.pc = .done
      }
    case .completionEnter:
      label = "enter the completion"
      if s.cancelTookDownstream { s.violation = "a completion after cancel() had let go of the subscriber" }
      if s.downstream.log.count != values.count { s.violation = "the completion came before the last value" }
      s.downstream.enterCompletion()
      me.pc = .completionExit
    case .completionExit:
      label = "return from the completion"
      s.downstream.exit()
      me.pc = .done
    case .done:
      return nil
    }
    s.emitters[thread] = me
    return [(label, s)]
  }

  /// Where the loop goes with this budget and position: the next value, the end of the
  /// sequence, or out of budget.
  private func loop(_ me: Emitter) -> PC {
    if me.index == values.count { return .finish }
    guard me.budget > 0 else { return .outOfBudget }
    return checksOncePerEmission && me.hasChecked ? .pull : .checkCancelled
  }

  private func cancellerStep(_ state: State) -> [(label: String, next: State)]? {
    var s = state
    switch s.cancelPC {
    case 0:
      s.isCancelled = true
      s.cancelPC = 1
      return [("isCancelled = true", s)]
    case 1:
      // `cancel()`'s section: lets go of the downstream and the iterator.
      if s.downstreamIsHeld { s.cancelTookDownstream = true }
      s.downstreamIsHeld = false
      s.parkedIndex = nil
      s.cancelPC = 2
      return [("cancel (lock)", s)]
    case 2:
      s.downstream.cancelReturned = true
      s.cancelPC = 3
      return [("cancel returns", s)]
    default:
      return nil
    }
  }

  // MARK: Checks

  func violation(in state: State) -> String? {
    state.violation ?? state.downstream.violation
  }

  func finalViolation(in state: State) -> String? {
    if state.downstream.inside != 0 { return "finished inside a call" }
    guard state.downstream.log == Array(values.prefix(state.downstream.log.count)) else {
      return "values arrived as \(state.downstream.log), not in the sequence's order \(values)"
    }
    if !cancels {
      if state.downstream.log != values { return "values arrived as \(state.downstream.log), expected \(values)" }
      if state.downstream.completions != 1 { return "\(state.downstream.completions) completions, expected 1" }
    }
    return nil
  }
}
