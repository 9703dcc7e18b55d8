import Synchronization

#if CONFLUENCE_LOCKED_FAST_PATHS
  /// `DeliveryGate` with a lock instead of its fence-free protocol, for builds with
  /// `-DCONFLUENCE_LOCKED_FAST_PATHS` (the differential check: the suites and the
  /// benchmarks run both ways). The same interface and the same answers, by the plain
  /// argument: `phase` and `depth` change together under one lock, so whoever sees the gate
  /// ended with no delivery running sees it exactly, and the duty to release the closures
  /// is taken once.
  ///
  /// Every delivery takes the lock twice (before and after the call) and a run takes it
  /// once per value; a cancel never needs the process-wide barrier.
  @usableFromInline
  internal struct DeliveryGate: ~Copyable {
    /// `phase`: open, ended (the duty to release not taken yet), released.
    @usableFromInline
    internal struct State: Sendable {
      @usableFromInline var phase: UInt8 = DeliveryGate.open
      @usableFromInline var depth = 0

      @inlinable
      init() {}
    }

    @usableFromInline static var open: UInt8 { 0 }
    @usableFromInline static var ended: UInt8 { 1 }
    @usableFromInline static var released: UInt8 { 2 }

    @usableFromInline let state = Mutex(State())

    @inlinable
    init() {}

    @inlinable
    var hasEnded: Bool { state.withLock { $0.phase != Self.open } }

    @inlinable
    var hasReleased: Bool { state.withLock { $0.phase == Self.released } }

    // MARK: Delivering

    @inlinable
    borrowing func deliver(_ body: () -> Void) -> Bool {
      let entered = state.withLock { gate -> Bool in
        guard gate.phase == Self.open else { return false }
        gate.depth += 1
        return true
      }
      guard entered else { return false }
      body()
      return endOwnersDelivery()
    }

    @inlinable
    borrowing func endOwnersDelivery() -> Bool {
      state.withLock { gate in
        gate.depth -= 1
        return gate.depth == 0 && gate.phase == Self.ended
      }
    }

    // MARK: Runs

    @usableFromInline
    internal enum RunStart {
      case running(UInt)
      case declined(releaseDuty: Bool)
    }

    @inlinable
    borrowing func beginRun() -> RunStart {
      let entered = state.withLock { gate -> Bool in
        guard gate.phase == Self.open else { return false }
        gate.depth += 1
        return true
      }
      return entered ? .running(0) : .declined(releaseDuty: false)
    }

    @inlinable
    func isOpenInRun(for _: UInt) -> Bool {
      state.withLock { $0.phase == Self.open }
    }

    @inlinable
    borrowing func claimUnderLock() {}

    // MARK: Ending

    @usableFromInline
    internal enum Ending {
      case alreadyEnded
      case releaseDuty
      case deliveryReleases
      case settle(previousOwner: UInt)
    }

    @inlinable
    borrowing func endFromUpstream() -> Ending {
      end()
    }

    @inlinable
    borrowing func endForCancel() -> Ending {
      end()
    }

    /// Ends the gate: the caller releases the closures if no delivery runs, else the
    /// outermost delivery does when it returns.
    @inlinable
    borrowing func end() -> Ending {
      state.withLock { gate in
        guard gate.phase == Self.open else { return .alreadyEnded }
        if gate.depth == 0 {
          gate.phase = Self.released
          return .releaseDuty
        }
        gate.phase = Self.ended
        return .deliveryReleases
      }
    }

    @inlinable
    borrowing func settle(previousOwner _: UInt) -> Bool {
      state.withLock { $0.depth == 0 } && takeReleaseDuty()
    }

    @inlinable
    borrowing func takeReleaseDuty() -> Bool {
      state.withLock { gate in
        guard gate.phase == Self.ended else { return false }
        gate.phase = Self.released
        return true
      }
    }

    @inlinable
    borrowing func endUnshared() {
      state.withLock { $0.phase = Self.released }
    }

    @inlinable
    borrowing func deliverLast(_ body: () -> Void) {
      state.withLock { $0.depth += 1 }
      body()
      state.withLock { $0.depth -= 1 }
    }
  }
#endif
