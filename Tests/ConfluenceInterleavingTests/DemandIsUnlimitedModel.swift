@testable import Confluence

/// A subject's subscriber asked for demand from several threads while a sender uses it, as
/// `SubjectConduit.requestSpecialized` serves a subject without a current value: a request
/// first reads `demandIsUnlimited` without the lock and returns at once if it is set;
/// otherwise it adds its demand under the lock, where the flag is set once the demand is
/// unlimited. The sender's send is one critical section of the library's own state machine
/// (`SubjectConduitState.offer`, then `finishDelivery`).
///
/// What it checks (the flag's invariant): a request that returns on the flag is one that
/// could have changed nothing — the demand is unlimited when the flag is read set, so adding
/// to it would leave it unlimited; and, at the end, every value sent after the demand that
/// covers it was added is delivered (none is dropped for demand a skipped request carried).
///
/// Sequentially consistent: the flag is stored inside the critical section that makes the
/// demand unlimited and never cleared, so a reader that sees it set reads a store made after
/// the demand became unlimited for good; a stale `false` only takes the lock.
struct DemandIsUnlimitedModel: InterleavingModel {
  /// What each thread does.
  enum Role: Hashable {
    /// Requests these demands in order.
    case requester([Subscribers.Demand])
    /// Sends this many values, each as one critical section.
    case sender(Int)
  }

  /// A deliberate flaw, for the check that the model bites.
  enum Mutation: Hashable {
    case none
    /// The flag is set whenever the demand is positive (not only unlimited).
    case setForAnyDemand
    /// The flag is stored in its own step before the critical section that adds the demand.
    case setBeforeTheDemand
  }

  let roles: [Role]
  var mutation = Mutation.none

  var threadCount: Int { roles.count }

  enum PC: Hashable {
    case start
    case readFlag
    case earlyFlag
    case locked
  }

  struct ThreadState: Hashable {
    var next = 0
    var pc = PC.start
    var finished = false
  }

  struct State: Hashable {
    var conduit = ConduitModel(demand: .none)
    var flag = false
    var delivered = 0
    var dropped = 0
    /// The demand of every request that has taken effect (added under the lock, or returned
    /// on the flag).
    var requestedInAll = Subscribers.Demand.none
    /// Values dropped while the requests made so far had asked for more than was delivered.
    var droppedWithDemandOwed = 0
    var violation: String?
    var threads: [ThreadState]
  }

  var initialState: State {
    State(threads: Array(repeating: ThreadState(), count: roles.count))
  }

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    var s = state
    let me = s.threads[thread]
    if me.finished { return nil }
    switch roles[thread] {
    case .sender(let count):
      guard me.next < count else {
        s.threads[thread].finished = true
        return [("done", s)]
      }
      s.threads[thread].next += 1
      // `send`'s critical section for one subscriber, then its delivery and finish.
      switch s.conduit.state.offer(me.next, keepsCurrentValue: false, byOwnerThread: false) {
      case .owned:
        s.delivered += 1
        _ = s.conduit.state.finishDelivery(returning: .none)
      case .done, .reserved:
        s.dropped += 1
        if s.requestedInAll > .max(s.delivered) { s.droppedWithDemandOwed += 1 }
      }
      return [("send \(me.next)", s)]
    case .requester(let demands):
      guard me.next < demands.count else {
        s.threads[thread].finished = true
        return [("done", s)]
      }
      let demand = demands[me.next]
      switch me.pc {
      case .start:
        if mutation == .setBeforeTheDemand, demand == .unlimited {
          s.threads[thread].pc = .earlyFlag
        } else {
          s.threads[thread].pc = .readFlag
        }
        return [("request \(demand)", s)]
      case .earlyFlag:
        s.flag = true
        s.threads[thread].pc = .readFlag
        return [("flag set early", s)]
      case .readFlag:
        if s.flag && !(mutation == .setBeforeTheDemand && s.threads[thread].pc == .readFlag && demand == .unlimited) {
          // Returns without the lock: the demand must be unlimited for good.
          if s.conduit.state.demand != .unlimited {
            s.violation = "a request for \(demand) returned on the flag while the demand was \(s.conduit.state.demand)"
          }
          s.requestedInAll += demand
          s.threads[thread].next += 1
          s.threads[thread].pc = .start
          return [("flag read set: return", s)]
        }
        s.threads[thread].pc = .locked
        return [("flag read clear", s)]
      case .locked:
        s.conduit.state.addDemand(demand)
        s.requestedInAll += demand
        let sets = mutation == .setForAnyDemand ? s.conduit.state.demand > 0 : s.conduit.state.demand == .unlimited
        if sets { s.flag = true }
        s.threads[thread].next += 1
        s.threads[thread].pc = .start
        return [("add \(demand) (lock)", s)]
      }
    }
  }

  func violation(in state: State) -> String? { state.violation }

  func finalViolation(in state: State) -> String? {
    if state.droppedWithDemandOwed > 0 {
      return "\(state.droppedWithDemandOwed) value(s) dropped while the requests had asked for more than was delivered"
    }
    return nil
  }
}
