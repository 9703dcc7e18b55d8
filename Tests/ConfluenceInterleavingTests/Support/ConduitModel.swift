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
    lhs.fields == rhs.fields && lhs.queue == rhs.queue
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(fields)
    hasher.combine(queue)
  }

  /// The queued values not yet delivered, in order.
  var queue: [Int] {
    state.pending[state.pendingHead...].compactMap { $0 }
  }

  private var fields: [Int] {
    [
      state.demand == .unlimited ? -1 : state.demand.max ?? 0,
      state.isDelivering ? 1 : 0, state.isSubscribing ? 1 : 0, state.isTerminal ? 1 : 0,
      state.owesCurrentValue ? 1 : 0, state.reservedCount, state.isCompletionPending ? 1 : 0,
    ]
  }
}
