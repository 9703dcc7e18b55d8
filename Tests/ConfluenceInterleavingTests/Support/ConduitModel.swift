@testable import Confluence

/// A subject subscriber's real state machine (`SubjectConduitState`), made hashable so that
/// a model's state can hold it: the models run the library's own transitions for every
/// critical section, and model only the steps between them.
struct ConduitModel: Hashable {
  var state: SubjectConduitState<Int, Never>

  init(demand: Subscribers.Demand, keepsCurrentValue: Bool = false) {
    state = SubjectConduitState(owesCurrentValue: keepsCurrentValue)
    state.isSubscribing = false
    state.demand = demand
  }

  static func == (lhs: ConduitModel, rhs: ConduitModel) -> Bool {
    let l = lhs.state
    let r = rhs.state
    return l.demand == r.demand && l.isDelivering == r.isDelivering && l.isSubscribing == r.isSubscribing
      && l.isTerminal == r.isTerminal && l.owesCurrentValue == r.owesCurrentValue
      && l.reservedCount == r.reservedCount && l.isCompletionPending == r.isCompletionPending
      && lhs.queue == rhs.queue
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(state.demand)
    hasher.combine(state.isDelivering)
    hasher.combine(state.isTerminal)
    hasher.combine(state.reservedCount)
    hasher.combine(state.pending.count - state.pendingHead)
  }

  /// The queued values not yet delivered, in order.
  var queue: ArraySlice<Int?> {
    state.pending[state.pendingHead...]
  }
}
