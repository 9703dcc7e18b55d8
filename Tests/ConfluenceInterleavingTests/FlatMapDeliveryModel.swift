/// The delivery word of the merge publishers (`FlatMapSubscription.delivery`) and
/// `zip`/`combineLatest` (`FanInSubscription.delivery`): who owns delivery downstream,
/// whether the owner must look again under the lock before it lets go (`recheck`), and — the
/// merge publishers only — whether a value may take delivery without the lock (`laneOpen`).
///
/// Two or three sender threads each send values. A value takes the lane (a
/// compare-and-exchange from `laneOpen` alone to `laneOpen | owned`) or runs a critical
/// section: under the lock it reads the word (closing the lane and setting `recheck` if a
/// thread owns delivery, in one read-modify-write), then either buffers its value (someone
/// delivers) or takes delivery and stores the word on leaving. The owner hands its value
/// downstream and lets go: with one compare-and-exchange clearing `owned` when `recheck` is
/// clear, else under the lock, where it takes the next buffered value or lets go.
/// `zip`/`combineLatest` have no lane (`hasLane` false); their owner lets go by exchanging
/// exactly `owned` for 0. (`flatMap` itself keeps no word: delivery changes hands under its
/// lock only, so the flag in its state machine, read and written under the lock, is all of
/// it, and there is no lock-free step to model.)
///
/// The lock is a location of its own: acquiring it is a step enabled only while it is free,
/// and a critical section is two steps (the read-modify-write on entry, the rest with the
/// store on leaving), between which the lock-free steps of other threads — the owner's
/// let-go, a value taking the lane — may run, as they may in the real code.
///
/// Memory is sequentially consistent here. The real code's plain (releasing) stores to the
/// word are made under the lock only, while no other thread can change the word (nobody
/// owns delivery and the lane is closed: the only lock-free writes expect `owned` or
/// `laneOpen`), and are followed by the unlock's locked instruction; a store waiting in the
/// store buffer meanwhile only makes other threads see "closed, nobody owns" for longer,
/// which sends them to the lock that this thread still holds. Every lock-free access is a
/// locked read-modify-write (sequentially consistent on x86-64), but the owner's load of the
/// word before its let-go, which only the owner makes and which its own compare-and-exchange
/// then checks.
///
/// Checks: at most one call into downstream at a time; every value delivered exactly once,
/// in each sender's order; when every thread has finished, nothing is left in the buffer
/// and nobody owns delivery (a value left behind is one no thread will ever deliver).
struct FlatMapDeliveryModel: InterleavingModel {
  /// Sender threads.
  let senders: Int
  /// Values each sender sends.
  let valuesPerSender: Int
  /// The merge publishers' lane.
  let hasLane: Bool
  /// Mutation: a critical section that finds an owner does not set `recheck`.
  var omitsRecheck = false
  /// Mutation: a critical section does not close the lane on entry.
  var leavesLaneOpen = false

  static let owned = 1
  static let recheck = 2
  static let laneOpen = 4

  var threadCount: Int { senders }

  /// Where a thread is.
  enum PC: Hashable {
    /// Before its next value.
    case next
    /// Waiting for the lock, for a value's critical section.
    case acquireForValue
    /// Holds the lock: the entry read-modify-write.
    case enter
    /// Holds the lock, read `word` on entry: the rest of the section.
    case leave(word: Int)
    /// Owns delivery: calls downstream.
    case callDownstream
    /// Inside downstream's `receive(_:)`.
    case inDownstream
    /// Owns delivery, downstream returned: the let-go's load (lane) or compare-and-exchange.
    case letGo
    /// The lane's let-go: read `seen`, compare-and-exchange it for `seen` without `owned`.
    case letGoExchange(seen: Int)
    /// Waiting for the lock, as the owner.
    case acquireAsOwner
    /// Holds the lock as the owner: takes the next buffered value or lets go.
    case ownerSection
  }

  struct Local: Hashable {
    var pc = PC.next
    var sent = 0
    /// The value this thread is sending or delivering.
    var value = -1
  }

  struct State: Hashable {
    var word: Int
    var lockHolder = -1
    var buffer: [Int] = []
    var threads: [Local]
    var delivered: [Int] = []
    var inDownstream = 0
  }

  var initialState: State {
    State(word: hasLane ? Self.laneOpen : 0, threads: Array(repeating: Local(), count: senders))
  }

  static func value(_ thread: Int, _ index: Int) -> Int { thread * 100 + index }

  func steps(of thread: Int, in state: State) -> [(label: String, next: State)]? {
    var s = state
    var l = s.threads[thread]
    func emit(_ label: String) -> [(String, State)] {
      s.threads[thread] = l
      return [(label, s)]
    }
    switch l.pc {
    case .next:
      guard l.sent < valuesPerSender else { return nil }
      l.value = Self.value(thread, l.sent)
      l.sent += 1
      if hasLane && s.word == Self.laneOpen {
        s.word = Self.laneOpen | Self.owned
        l.pc = .callDownstream
        return emit("value \(l.value) takes the lane")
      }
      l.pc = .acquireForValue
      return emit(hasLane ? "value \(l.value): lane closed" : "value \(l.value)")
    case .acquireForValue, .acquireAsOwner:
      guard s.lockHolder < 0 else { return [] }
      s.lockHolder = thread
      l.pc = l.pc == .acquireForValue ? .enter : .ownerSection
      return emit("lock")
    case .enter:
      var word = s.word
      if hasLane {
        if word != 0 {
          let closed = leavesLaneOpen ? word : word & ~Self.laneOpen
          word = closed | (word & Self.owned != 0 && !omitsRecheck ? Self.recheck : 0)
        }
      } else if word == Self.owned && !omitsRecheck {
        word = Self.owned | Self.recheck
      }
      s.word = word
      l.pc = .leave(word: word)
      return emit("enter: word \(state.word) → \(word)")
    case .leave(let word):
      s.lockHolder = -1
      if word & Self.owned != 0 {
        // Someone delivers: the value waits for the owner.
        s.buffer.append(l.value)
        l.pc = .next
        return emit("buffer \(l.value), unlock")
      }
      // Nobody delivered on entry: this section takes delivery, of the oldest value (the
      // buffer is empty then, unless a mutation left a value behind).
      s.buffer.append(l.value)
      l.value = s.buffer.removeFirst()
      s.word = Self.owned | (s.buffer.isEmpty ? 0 : Self.recheck)
      l.pc = .callDownstream
      return emit("take delivery of \(l.value), unlock")
    case .callDownstream:
      s.inDownstream += 1
      s.delivered.append(l.value)
      l.pc = .inDownstream
      return emit("downstream receives \(l.value)")
    case .inDownstream:
      s.inDownstream -= 1
      l.pc = .letGo
      return emit("downstream returns")
    case .letGo:
      if hasLane {
        l.pc = .letGoExchange(seen: s.word)
        return emit("let go: load word \(s.word)")
      }
      if s.word == Self.owned {
        s.word = 0
        l.pc = .next
        return emit("let go: owned → 0")
      }
      l.pc = .acquireAsOwner
      return emit("let go: recheck set")
    case .letGoExchange(let seen):
      if seen & Self.recheck == 0 && s.word == seen {
        s.word = seen & ~Self.owned
        l.pc = .next
        return emit("let go: \(seen) → \(s.word)")
      }
      l.pc = .acquireAsOwner
      return emit("let go: to the lock")
    case .ownerSection:
      s.lockHolder = -1
      if !s.buffer.isEmpty {
        l.value = s.buffer.removeFirst()
        s.word = Self.owned | (s.buffer.isEmpty ? 0 : Self.recheck)
        l.pc = .callDownstream
        return emit("owner takes \(l.value), unlock")
      }
      // Nothing waits: let go; the merge publishers open the lane again.
      s.word = hasLane ? Self.laneOpen : 0
      l.pc = .next
      return emit("owner lets go, unlock")
    }
  }

  func violation(in state: State) -> String? {
    state.inDownstream > 1 ? "two calls into downstream at once" : nil
  }

  func finalViolation(in state: State) -> String? {
    if !state.buffer.isEmpty { return "values left behind, never delivered: \(state.buffer)" }
    if state.word & Self.owned != 0 { return "delivery still owned after every thread finished" }
    let expected = senders * valuesPerSender
    if state.delivered.count != expected {
      return "\(state.delivered.count) values delivered, \(expected) sent: \(state.delivered)"
    }
    for thread in 0..<senders {
      let own = state.delivered.filter { $0 / 100 == thread }
      if own != (0..<valuesPerSender).map({ Self.value(thread, $0) }) {
        return "sender \(thread)'s values out of order or repeated: \(own)"
      }
    }
    return nil
  }
}
