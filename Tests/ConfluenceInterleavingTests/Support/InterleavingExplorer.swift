/// A small model checker for the library's lock-free protocols: a protocol is written as a
/// model (``InterleavingModel``) — two or three threads, each a sequence of atomic steps over
/// a shared state — and ``explore(_:stateLimit:)`` runs every interleaving of those steps,
/// checking the model's invariant in every state reached and its outcome in every final
/// state. It is exhaustive: states already reached are not explored twice, so the work is
/// bounded by the number of distinct states, not of schedules.
///
/// A step is what the real code does atomically: one atomic load, store or
/// read-modify-write, or one critical section under a lock (a lock makes its section one
/// step). Waiting (for a lock's owner, a spin on a flag) is a thread with no step enabled,
/// so a state where every unfinished thread waits is reported as a deadlock.
///
/// Memory: the models are checked under sequential consistency, except where they say
/// otherwise and model the hardware's store buffers themselves (``StoreBuffers``), as the
/// protocols that rely on fences do.
protocol InterleavingModel {
  associatedtype State: Hashable

  /// The number of threads.
  var threadCount: Int { get }

  /// The state before any thread has run.
  var initialState: State { get }

  /// What `thread` may do next in `state`: each possible step, named for the trace, with
  /// the state it leads to (several when the step itself is a choice). An empty list: the
  /// thread waits. `nil`: the thread has finished.
  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]?

  /// What must never be seen in any state (`nil` if all is well).
  func violation(in state: State) -> String?

  /// What must hold once every thread has finished (`nil` if all is well).
  func finalViolation(in state: State) -> String?
}

extension InterleavingModel {
  func violation(in state: State) -> String? { nil }
}

/// What an exploration found.
struct Exploration: CustomStringConvertible {
  /// Distinct states reached.
  var states = 0
  /// Steps taken between them.
  var transitions = 0
  /// Distinct final states (every thread finished).
  var finalStates = 0
  /// The number of distinct complete schedules (orders of the threads' steps), when the
  /// state graph has no cycle (a model whose threads can loop has none to count).
  var schedules: Double?
  /// The first violation found, with the steps that led to it.
  var failure: (message: String, trace: [String])?

  var description: String {
    let counted = schedules.map { ", \(Self.format($0)) schedules" } ?? ""
    if let failure {
      return "FAILED: \(failure.message)\n  after: \(failure.trace.joined(separator: " → "))"
        + "\n  (\(states) states explored\(counted))"
    }
    return "\(states) states, \(transitions) transitions, \(finalStates) final states\(counted)"
  }

  private static func format(_ count: Double) -> String {
    count < 1e15 ? String(Int64(count)) : "\(count)"
  }
}

/// Explores every interleaving of `model`'s threads (see ``InterleavingModel``), stopping at
/// the first violation or deadlock, or after `stateLimit` distinct states (a failure: the
/// model is too large to check exhaustively).
func explore<M: InterleavingModel>(_ model: M, stateLimit: Int = 4_000_000) -> Exploration {
  var result = Exploration()
  // Each distinct state gets a number; the graph is kept as numbers.
  var ids: [M.State: Int32] = [:]
  var states: [M.State] = []
  // Each state's parent and the step that reached it, for traces.
  var parent: [(Int32, String)] = []
  var successors: [[Int32]] = []

  func intern(_ state: M.State, from previous: Int32, _ label: @autoclosure () -> String) -> (Int32, Bool) {
    if let id = ids[state] { return (id, false) }
    let id = Int32(states.count)
    ids[state] = id
    states.append(state)
    parent.append((previous, previous < 0 ? "" : label()))
    successors.append([])
    return (id, true)
  }

  func trace(to id: Int32) -> [String] {
    var labels: [String] = []
    var current = id
    while current > 0 {
      let (previous, label) = parent[Int(current)]
      labels.append(label)
      current = previous
    }
    return labels.reversed()
  }

  var stack = [intern(model.initialState, from: -1, "").0]
  while let id = stack.popLast() {
    let state = states[Int(id)]
    result.states += 1
    if result.states > stateLimit {
      result.failure = ("more than \(stateLimit) states: the model is too large to explore", [])
      return result
    }
    if let message = model.violation(in: state) {
      result.failure = (message, trace(to: id))
      return result
    }
    var next: [Int32] = []
    var finished = 0
    for thread in 0..<model.threadCount {
      guard let steps = model.steps(of: thread, in: state) else {
        finished += 1
        continue
      }
      for (label, successor) in steps {
        result.transitions += 1
        let (successorID, isNew) = intern(successor, from: id, "T\(thread): \(label)")
        next.append(successorID)
        if isNew { stack.append(successorID) }
      }
    }
    successors[Int(id)] = next
    if finished == model.threadCount {
      result.finalStates += 1
      if let message = model.finalViolation(in: state) {
        result.failure = (message, trace(to: id))
        return result
      }
    } else if next.isEmpty {
      result.failure = ("deadlock: every unfinished thread waits", trace(to: id))
      return result
    }
  }
  result.schedules = countSchedules(successors)
  return result
}

/// The number of paths from state 0 to a state with no successor, or `nil` if the graph has
/// a cycle.
private func countSchedules(_ successors: [[Int32]]) -> Double? {
  var paths = [Double](repeating: -1, count: successors.count)
  var onPath = [Bool](repeating: false, count: successors.count)
  // Iterative post-order walk (a recursive one could exhaust the stack on long models).
  var work: [(Int32, Bool)] = [(0, false)]
  while let (state, expanded) = work.popLast() {
    let index = Int(state)
    if expanded {
      onPath[index] = false
      let next = successors[index]
      paths[index] = next.isEmpty ? 1 : next.reduce(0) { $0 + paths[Int($1)] }
      continue
    }
    if paths[index] >= 0 { continue }
    if onPath[index] { return nil }
    onPath[index] = true
    work.append((state, true))
    for successor in successors[index] {
      if onPath[Int(successor)] { return nil }
      if paths[Int(successor)] < 0 { work.append((successor, false)) }
    }
  }
  return paths[0]
}
