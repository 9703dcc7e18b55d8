/// `Lock` on Linux (Sources/Confluence/Internal/Locking.swift) under x86-64's memory model
/// (``StoreBuffers``): threads that each take the lock, increment a counter inside the section
/// with a plain load and store, and give the lock back, some of them sleeping on the futex.
///
/// Mirrors `acquire()` (one compare-and-exchange), `acquireContended()` (one more try for the
/// spinning, then counting itself in `sleepers`, the process-wide barrier, and the loop of a
/// compare-and-exchange and `futex_wait(word, 1)`), and `release(_:)` (a plain store of 0, a
/// compiler barrier — or a full fence where the kernel has no barrier — a load of `sleepers`,
/// and `futex_wake` of one sleeper if it read any). The kernel's futex calls are one step
/// each, taken on a drained buffer (they lock the futex's hash bucket): `futex_wait` reads
/// `word` in memory and puts the thread to sleep only if it is 1; `futex_wake` wakes one
/// sleeping thread, any of them (each a choice), or none if none sleeps. A sleeping thread
/// has no step until woken, so a wake-up that is lost shows as a deadlock.
///
/// With `biased`, the lock starts biased to thread 0 (`owner` holds its token), as `init()`
/// makes it: thread 0 checks `owner`, raises `inside` with a plain store, checks `owner` again
/// and runs its section without `word`, lowering `inside` (a plain store) to give it back.
/// Any other thread takes `word` first and then, while `owner` is set, revokes the bias:
/// stores 0 to `owner`, runs the process-wide barrier, and waits until `inside` reads 0.
/// Thread 0 then finds `owner` 0 and takes `word` like the others.
///
/// Checks: never two threads in the section; in the end every increment is in the counter,
/// the lock is free, thread 0 is not inside, and no thread is counted as a sleeper.
struct LockModel: InterleavingModel {
  /// The threads taking the lock.
  let threads: Int
  /// How many times each thread takes it.
  let rounds: Int
  /// Whether the process-wide barrier exists (else `release` fences fully).
  var barrierAvailable = true
  /// For the record of what the checks catch: the waiter skips the barrier.
  var omitsBarrier = false
  /// For the record of what the checks catch: `release` never looks at `sleepers`.
  var neverWakes = false
  /// For the record of what the checks catch: without the barrier, `release` skips its
  /// full fence too.
  var omitsFence = false
  /// Whether the lock starts biased to thread 0 (only where the barrier exists, as in
  /// `init()`).
  var biased = false
  /// For the record of what the checks catch: the revoking thread skips the barrier.
  var revokesWithoutBarrier = false
  /// For the record of what the checks catch: thread 0 enters after raising `inside`
  /// without reading `owner` again.
  var ownerSkipsSecondCheck = false

  static let word = 0
  static let sleepers = 1
  static let counter = 2
  static let owner = 3
  static let inside = 4

  var threadCount: Int { threads }

  enum PC: Hashable {
    case checkOwner, raiseInside, checkOwnerAgain, lowerInside
    case tryFast, spin, countSleeper, barrier, retry, futexWait, uncountSleeper
    case checkBias, revokeStore, revokeBarrier, waitInside
    case readCounter, writeCounter, storeFree, fence, readSleepers, wake, releaseBiased
  }

  struct Local: Hashable {
    var round = 0
    var pc = PC.checkOwner
    var read = 0
    var asleep = false
    /// In the section by the bias, not by `word`.
    var holdsByBias = false
  }

  struct State: Hashable {
    var memory: StoreBuffers
    var locals: [Local]
    var holders = 0
  }

  var initialState: State {
    State(
      memory: StoreBuffers(locations: [0, 0, 0, biased && barrierAvailable ? 1 : 0, 0], threads: threads),
      locals: Array(repeating: Local(), count: threads))
  }

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    var result: [(String, State)] = []
    if !state.memory.isDrained(thread) {
      var s = state
      s.memory.flushOldest(of: thread)
      result.append(("store reaches memory", s))
    }
    let local = state.locals[thread]
    if local.round == rounds {
      return result.isEmpty ? nil : result
    }
    if local.asleep { return result }
    result.append(contentsOf: program(thread, state))
    return result
  }

  private func program(_ thread: Int, _ state: State) -> [(String, State)] {
    var s = state
    var l = s.locals[thread]
    let drained = s.memory.isDrained(thread)
    func emit(_ label: String) -> [(String, State)] {
      s.locals[thread] = l
      return [(label, s)]
    }
    /// A compare-and-exchange of `word` from 0 to 1 (a locked instruction: drained first).
    func takeWord() -> Bool {
      guard s.memory.load(Self.word, by: thread) == 0 else { return false }
      s.memory.storeFenced(Self.word, 1, by: thread)
      return true
    }
    func enter(byBias: Bool) {
      s.holders += 1
      l.holdsByBias = byBias
      l.pc = .readCounter
    }
    func nextRound() {
      l.round += 1
      l.pc = .checkOwner
    }
    switch l.pc {
    case .checkOwner:
      // `owner == me`: only thread 0 can read its own token there.
      let biasedToMe = thread == 0 && s.memory.load(Self.owner, by: thread) == 1
      l.pc = biasedToMe ? .raiseInside : .tryFast
      return emit("acquire: read owner")
    case .raiseInside:
      s.memory.store(Self.inside, 1, by: thread)
      if ownerSkipsSecondCheck {
        enter(byBias: true)
      } else {
        l.pc = .checkOwnerAgain
      }
      return emit("inside = 1")
    case .checkOwnerAgain:
      if s.memory.load(Self.owner, by: thread) == 1 {
        enter(byBias: true)
        return emit("read owner again: still biased, enters")
      }
      l.pc = .lowerInside
      return emit("read owner again: revoked")
    case .lowerInside:
      s.memory.store(Self.inside, 0, by: thread)
      l.pc = .tryFast
      return emit("inside = 0, takes word instead")
    case .tryFast, .spin:
      guard drained else { return [] }
      let label = l.pc == .tryFast ? "acquire: compare-and-exchange" : "spin: compare-and-exchange"
      if takeWord() {
        l.pc = .checkBias
      } else {
        l.pc = l.pc == .tryFast ? .spin : .countSleeper
      }
      return emit(label)
    case .countSleeper:
      guard drained else { return [] }
      s.memory.storeFenced(Self.sleepers, s.memory.load(Self.sleepers, by: thread) + 1, by: thread)
      l.pc = barrierAvailable && !omitsBarrier ? .barrier : .retry
      return emit("sleepers += 1")
    case .barrier:
      // `membarrier`: every running thread executes a full fence.
      guard s.memory.isDrained else { return [] }
      l.pc = .retry
      return emit("process-wide barrier")
    case .retry:
      guard drained else { return [] }
      l.pc = takeWord() ? .uncountSleeper : .futexWait
      return emit("retry: compare-and-exchange")
    case .futexWait:
      guard drained else { return [] }
      if s.memory.load(Self.word, by: thread) == 1 {
        l.asleep = true
        l.pc = .retry
        return emit("futex_wait: sleeps")
      }
      l.pc = .retry
      return emit("futex_wait: word changed, returns")
    case .uncountSleeper:
      guard drained else { return [] }
      s.memory.storeFenced(Self.sleepers, s.memory.load(Self.sleepers, by: thread) - 1, by: thread)
      l.pc = .checkBias
      return emit("sleepers -= 1")
    case .checkBias:
      if s.memory.load(Self.owner, by: thread) != 0 {
        l.pc = .revokeStore
        return emit("holds word: still biased, revokes")
      }
      enter(byBias: false)
      return emit("holds word: no bias, enters")
    case .revokeStore:
      s.memory.store(Self.owner, 0, by: thread)
      l.pc = revokesWithoutBarrier ? .waitInside : .revokeBarrier
      return emit("owner = 0")
    case .revokeBarrier:
      guard s.memory.isDrained else { return [] }
      l.pc = .waitInside
      return emit("process-wide barrier (revoking)")
    case .waitInside:
      guard s.memory.load(Self.inside, by: thread) == 0 else { return [] }
      enter(byBias: false)
      return emit("inside reads 0, enters")
    case .readCounter:
      l.read = s.memory.load(Self.counter, by: thread)
      l.pc = .writeCounter
      return emit("read counter")
    case .writeCounter:
      s.memory.store(Self.counter, l.read + 1, by: thread)
      l.pc = l.holdsByBias ? .releaseBiased : .storeFree
      return emit("write counter")
    case .releaseBiased:
      s.memory.store(Self.inside, 0, by: thread)
      s.holders -= 1
      l.holdsByBias = false
      nextRound()
      return emit("release: inside = 0")
    case .storeFree:
      s.memory.store(Self.word, 0, by: thread)
      s.holders -= 1
      l.pc = barrierAvailable || omitsFence ? .readSleepers : .fence
      return emit("release: store 0")
    case .fence:
      guard drained else { return [] }
      l.pc = .readSleepers
      return emit("full fence")
    case .readSleepers:
      let sleeping = s.memory.load(Self.sleepers, by: thread)
      if sleeping != 0 && !neverWakes {
        l.pc = .wake
      } else {
        nextRound()
      }
      return emit("read sleepers (\(sleeping))")
    case .wake:
      guard drained else { return [] }
      nextRound()
      s.locals[thread] = l
      let asleep = s.locals.indices.filter { s.locals[$0].asleep }
      if asleep.isEmpty { return [("futex_wake: nobody asleep", s)] }
      return asleep.map { sleeper in
        var woken = s
        woken.locals[sleeper].asleep = false
        return ("futex_wake: wakes T\(sleeper)", woken)
      }
    }
  }

  func violation(in state: State) -> String? {
    state.holders > 1 ? "two threads hold the lock" : nil
  }

  func finalViolation(in state: State) -> String? {
    let memory = state.memory
    if memory.memory[Self.counter] != threads * rounds {
      return "the counter is \(memory.memory[Self.counter]), not \(threads * rounds): an increment was lost"
    }
    if memory.memory[Self.word] != 0 { return "the lock is still held" }
    if memory.memory[Self.inside] != 0 { return "thread 0 is still inside" }
    if memory.memory[Self.sleepers] != 0 { return "sleepers is \(memory.memory[Self.sleepers]), not 0" }
    return nil
  }
}
