/// `SchedulerHopSubscription` (`receive(on:)`, `subscribe(on:)`'s delivery side, `delay`):
/// upstream's thread takes each event (`isTakingEvents`, one load; the completion by a
/// compare-and-exchange), queues it and schedules one action for it; the scheduler runs
/// the actions concurrently, on threads of their own (a concurrent queue: the serial case
/// is one of these orders); an action counts itself into `deliveries` and, if it took the
/// count from 0, delivers the oldest queued events until its own decrement reaches 0,
/// dropping values once `isCancelled` is set; a last thread may cancel.
///
/// Steps: upstream's load of the flag, its compare-and-exchange, `queue.append` and the
/// scheduling are one step each; so are each action's increment and decrement of
/// `deliveries`, `queue.removeFirst()`, its load of `isCancelled`, the completion's
/// section (`status.take()`) and each event entering and returning; `cancel()`'s section
/// is one step. An action's thread can run only once it has been scheduled.
///
/// What it checks: never two events inside the subscriber at once; values in upstream's
/// order, none twice, none after the completion; the completion once; after `cancel()`
/// returned, at most one value starts; the queue is never empty when an action removes
/// from it (the queue's own contract) and is empty, with `deliveries` at 0, when all is
/// done; with no cancel, every value and then the completion arrive.
///
/// Memory: sequentially consistent. Every hand-over between threads is a read-modify-write
/// on `deliveries` or `isTakingEvents` (which drain the store buffer on x86-64), the
/// scheduler's own synchronisation (the event is appended before the action is scheduled)
/// or the lock; the flags the loads read are stored inside the lock before `cancel()`
/// returns. So store buffers add no outcome here.
///
/// The mutation that shows the model can fail (``schedulesBeforeAppending``, checked by
/// `SchedulerHopInterleavingTests.test_actionScheduledBeforeItsEvent_isCaught`): scheduling
/// the action before appending its event (swapping `receive(_:)`'s two steps). Every
/// configuration then fails
/// with "an action removed from an empty queue", `test_twoValuesAndCompletion` after
/// `T0: 1: isTakingEvents? yes → T0: schedule action 1 → T1: deliveries 0 → 1 (owns
/// delivery) → T1: removeFirst`.
struct SchedulerHopModel: InterleavingModel {
  /// The values upstream sends (distinct), then the completion if `completes`.
  let values: [Int]
  let completes: Bool
  /// Whether a last thread cancels.
  let cancels: Bool
  /// The mutation: each event's action is scheduled before the event is appended.
  var schedulesBeforeAppending = false

  /// Events upstream may send, and so actions that may be scheduled (one thread each).
  private var actionCount: Int { values.count + (completes ? 1 : 0) }
  var threadCount: Int { 1 + actionCount + (cancels ? 1 : 0) }
  private var cancellerThread: Int { 1 + actionCount }

  // MARK: State

  enum Event: Hashable {
    case value(Int)
    case completion
  }

  enum UpstreamPC: Hashable {
    case readTaking
    case append(Event)
    case schedule
    case scheduleFirst(Event)
    case appendLast(Event)
    case done
  }

  enum ActionPC: Hashable {
    case increment
    case remove
    case checkCancelled(Int)
    case enter(Int)
    case exit
    case takeStatus
    case completionEnter
    case completionExit
    case decrement
    case done
  }

  struct State: Hashable {
    var isTakingEvents = true
    var isCancelled = false
    var deliveries = 0
    var queue: [Event] = []
    var statusIsSubscribed = true

    var upstreamPC = UpstreamPC.readTaking
    /// Upstream's next event: an index into `values`, `values.count` for the completion.
    var nextEvent = 0
    var scheduled = 0
    var actions: [ActionPC]
    var cancelPC = 0
    var downstream = DownstreamRecord()
    var violation: String?
  }

  var initialState: State {
    State(actions: Array(repeating: .increment, count: actionCount))
  }

  // MARK: Steps

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    if thread == 0 { return upstreamStep(state) }
    if thread == cancellerThread { return cancellerStep(state) }
    return actionStep(thread - 1, state)
  }

  private func upstreamStep(_ state: State) -> [(label: String, next: State)]? {
    var s = state
    switch s.upstreamPC {
    case .readTaking:
      if s.nextEvent < values.count {
        // `receive(_:)`: one load of the flag.
        let value = values[s.nextEvent]
        s.nextEvent += 1
        if s.isTakingEvents {
          s.upstreamPC = schedulesBeforeAppending ? .scheduleFirst(.value(value)) : .append(.value(value))
          return [("\(value): isTakingEvents? yes", s)]
        }
        return [("\(value): isTakingEvents? no", s)]
      }
      if completes, s.nextEvent == values.count {
        // `receive(completion:)`: compare-and-exchange true → false.
        s.nextEvent += 1
        if s.isTakingEvents {
          s.isTakingEvents = false
          s.upstreamPC = schedulesBeforeAppending ? .scheduleFirst(.completion) : .append(.completion)
          return [("completion: isTakingEvents true → false", s)]
        }
        return [("completion: isTakingEvents already false", s)]
      }
      s.upstreamPC = .done
      return [("done", s)]
    case .append(let event):
      s.queue.append(event)
      s.upstreamPC = .schedule
      return [("append \(event)", s)]
    case .schedule:
      s.scheduled += 1
      s.upstreamPC = .readTaking
      return [("schedule action \(s.scheduled)", s)]
    case .scheduleFirst(let event):
      s.scheduled += 1
      s.upstreamPC = .appendLast(event)
      return [("schedule action \(s.scheduled) (before its event)", s)]
    case .appendLast(let event):
      s.queue.append(event)
      s.upstreamPC = .readTaking
      return [("append \(event)", s)]
    case .done:
      return nil
    }
  }

  private func actionStep(_ action: Int, _ state: State) -> [(label: String, next: State)]? {
    var s = state
    guard action < s.scheduled else {
      // Not scheduled (yet): it waits while upstream may still schedule it.
      return s.upstreamPC == .done ? nil : []
    }
    let label: String
    switch s.actions[action] {
    case .increment:
      let old = s.deliveries
      s.deliveries += 1
      label = "deliveries \(old) → \(old + 1)\(old == 0 ? " (owns delivery)" : "")"
      s.actions[action] = old == 0 ? .remove : .done
    case .remove:
      label = "removeFirst"
      guard !s.queue.isEmpty else {
        s.violation = "an action removed from an empty queue"
        return [(label, s)]
      }
      switch s.queue.removeFirst() {
      case .value(let value): s.actions[action] = .checkCancelled(value)
      case .completion: s.actions[action] = .takeStatus
      }
    case .checkCancelled(let value):
      label = "isCancelled? \(s.isCancelled ? "yes: drop \(value)" : "no")"
      s.actions[action] = s.isCancelled ? .decrement : .enter(value)
    case .enter(let value):
      label = "enter \(value)"
      s.downstream.enter(value)
      s.actions[action] = .exit
    case .exit:
      label = "return"
      s.downstream.exit()
      s.actions[action] = .decrement
    case .takeStatus:
      label = "status.take() (lock)"
      s.statusIsSubscribed = false
      s.actions[action] = .completionEnter
    case .completionEnter:
      label = "enter the completion"
      s.downstream.enterCompletion()
      s.actions[action] = .completionExit
    case .completionExit:
      label = "return from the completion"
      s.downstream.exit()
      s.actions[action] = .decrement
    case .decrement:
      s.deliveries -= 1
      label = "deliveries \(s.deliveries + 1) → \(s.deliveries)"
      s.actions[action] = s.deliveries != 0 ? .remove : .done
    case .done:
      return nil
    }
    return [(label, s)]
  }

  private func cancellerStep(_ state: State) -> [(label: String, next: State)]? {
    var s = state
    switch s.cancelPC {
    case 0:
      // `cancel()`'s section (the subscription has arrived: the cancel is not ignored).
      s.isCancelled = true
      s.isTakingEvents = false
      s.statusIsSubscribed = false
      s.cancelPC = 1
      return [("cancel (lock)", s)]
    case 1:
      s.downstream.cancelReturned = true
      s.cancelPC = 2
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
    if !state.queue.isEmpty { return "events left in the queue: \(state.queue)" }
    if state.deliveries != 0 { return "deliveries left at \(state.deliveries)" }
    guard state.downstream.log == Array(values.prefix(state.downstream.log.count)) else {
      return "values arrived as \(state.downstream.log), not a prefix of \(values)"
    }
    if !cancels {
      if state.downstream.log != values { return "values arrived as \(state.downstream.log), expected \(values)" }
      if state.downstream.completions != (completes ? 1 : 0) {
        return "\(state.downstream.completions) completions, expected \(completes ? 1 : 0)"
      }
    }
    return nil
  }
}
