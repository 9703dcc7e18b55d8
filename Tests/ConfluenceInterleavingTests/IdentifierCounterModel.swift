/// The counter behind `CombineIdentifier()`: each of three threads makes two identifiers,
/// each by one `wrappingAdd(2)` on the shared counter (one step: a read-modify-write), and
/// keeps the new value.
///
/// What it checks: no two identifiers are equal, and the counter ends at twice their number
/// (no increment lost).
///
/// Memory: sequentially consistent. A read-modify-write on one location is atomic under
/// any ordering, relaxed included; the counter orders nothing else.
///
/// The mutation that shows the model can fail (``incrementsInTwoSteps``, checked by
/// `IdentifierCounterInterleavingTests.test_loadThenStore_isCaught`): the increment as a
/// load and then a store of the loaded value plus two (what `counter += 2` on a plain
/// global compiles to). Two threads then read the same old value and make the same
/// identifier.
struct IdentifierCounterModel: InterleavingModel {
  let threadCount = 3
  /// Identifiers each thread makes.
  let perThread = 2
  /// The mutation: a separate load and store instead of one read-modify-write.
  var incrementsInTwoSteps = false

  struct State: Hashable {
    var counter = 0
    /// Each thread's identifiers, and the value its split increment loaded (the mutation).
    var made: [[Int]] = Array(repeating: [], count: 3)
    var loaded: [Int?] = Array(repeating: nil, count: 3)
  }

  var initialState: State { State() }

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    var s = state
    if let old = s.loaded[thread] {
      s.counter = old + 2
      s.made[thread].append((old + 2) | 1)
      s.loaded[thread] = nil
      return [("store \(old + 2)", s)]
    }
    guard s.made[thread].count < perThread else { return nil }
    if incrementsInTwoSteps {
      s.loaded[thread] = s.counter
      return [("load \(s.counter)", s)]
    }
    s.counter += 2
    s.made[thread].append(s.counter | 1)
    return [("wrappingAdd(2) → \(s.counter)", s)]
  }

  func violation(in state: State) -> String? {
    let all = state.made.flatMap { $0 }
    return Set(all).count == all.count ? nil : "two identifiers are equal: \(state.made)"
  }

  func finalViolation(in state: State) -> String? {
    state.counter == 2 * threadCount * perThread ? nil : "the counter ended at \(state.counter)"
  }
}
