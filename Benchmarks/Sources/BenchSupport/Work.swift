import Foundation

/// The per-element work every library does, so that all of them compute the same checksum.
///
/// `map` is `transform`, `filter` is `isIncluded` (keeps half of the values), and the sink
/// folds each delivered value into an FNV-1a style hash with `mix`. The hash depends on every
/// value and on their order, so a library that drops, duplicates or reorders a value fails the
/// check, and the optimizer cannot replace the work by a closed form.
public enum Work {
  /// The starting value of every checksum.
  @inlinable
  public static var seed: UInt64 { 0xcbf2_9ce4_8422_2325 }

  /// The `map` closure's body.
  @inlinable
  @inline(__always)
  public static func transform(_ value: Int) -> Int { value &* 3 &+ 1 }

  /// The `filter` closure's body: keeps values whose bit 1 is clear (half of them).
  @inlinable
  @inline(__always)
  public static func isIncluded(_ value: Int) -> Bool { value & 2 == 0 }

  /// The `map` of every stage after the first in the long pipelines (issue 21).
  @inlinable
  @inline(__always)
  public static func step(_ value: Int) -> Int { value &+ 1 }

  /// The `filter` of every stage after the first in the long pipelines: keeps every value
  /// the workloads produce (bit 62 is never set), but the closure still runs and its
  /// result still decides.
  @inlinable
  @inline(__always)
  public static func keep(_ value: Int) -> Bool { value & 0x4000_0000_0000_0000 == 0 }

  /// `keep` as a call to a function the optimizer does not inline — as a predicate that
  /// calls a method does. Each `filter { Work.keepCalled($0) }` closure then loads the value
  /// and jumps to this one function, which returns to the stage. The `-called` rows use it:
  /// with `keep` inlined, five distinct closures each compute and return themselves, which on
  /// this machine tripled the 12-stage rows' time until the stages read their downstream
  /// before calling a closure (Benchmarks/README.md, "Long pipelines", points 9 and 10).
  @inline(never)
  public static func keepCalled(_ value: Int) -> Bool { value != Int.min }

  /// The sink's body: folds `value` into `hash`.
  @inlinable
  @inline(__always)
  public static func mix(_ hash: UInt64, _ value: Int) -> UInt64 {
    (hash ^ UInt64(bitPattern: Int64(value))) &* 0x100_0000_01b3
  }

  /// `removeDuplicates`' predicate: values `2k` and `2k + 1` count as duplicates, so it
  /// drops every odd value that follows its even neighbour (half of them).
  @inlinable
  @inline(__always)
  public static func isDuplicate(_ previous: Int, _ current: Int) -> Bool { previous >> 1 == current >> 1 }

  /// Folds a pair (from `zip` or `combineLatest`) into one value, so its order matters.
  @inlinable
  @inline(__always)
  public static func pair(_ first: Int, _ second: Int) -> Int { first &* 31 &+ second }

  /// Combines the checksums of several subscribers, independent of delivery order between them.
  @inlinable
  public static func combine(_ hashes: [UInt64]) -> UInt64 {
    hashes.reduce(0, &+)
  }
}

/// Which `keep` the long pipelines' `filter` closures call: a type parameter, so that each
/// workload's closures call it directly once specialised.
public protocol KeepPredicate {
  static func keep(_ value: Int) -> Bool
}

/// `Work.keep`, inlined into each closure.
public enum InlinedKeep: KeepPredicate {
  @inlinable
  @inline(__always)
  public static func keep(_ value: Int) -> Bool { Work.keep(value) }
}

/// `Work.keepCalled`: each closure calls one function the optimizer does not inline.
public enum CalledKeep: KeepPredicate {
  @inlinable
  @inline(__always)
  public static func keep(_ value: Int) -> Bool { Work.keepCalled(value) }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
public func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Returns `value`, hiding from the optimizer that it is the same value.
@inline(never)
public func opaque<T>(_ value: T) -> T { value }

/// Where a sink folds its values: a checksum behind a pointer, captured by value.
///
/// A sink closure that captures a `var` pays a dynamic exclusivity check
/// (`swift_beginAccess`, ≈4–5 ns here) on every value, whatever library feeds it; that cost
/// belongs to the closure, not to the library, so the workloads fold into this instead.
/// The `sequence-captured-var` workload keeps the `var` to show what it costs.
public struct Accumulator: @unchecked Sendable {
  // Unchecked: each accumulator is written by one pipeline, on one thread at a time.
  @usableFromInline
  internal let pointer: UnsafeMutablePointer<UInt64>

  public init() {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: Work.seed)
  }

  /// Folds `value` into the checksum.
  @inlinable
  @inline(__always)
  public func add(_ value: Int) {
    pointer.pointee = Work.mix(pointer.pointee, value)
  }

  /// Replaces the checksum (for a pipeline that delivers a finished checksum, as `reduce`).
  @inlinable
  @inline(__always)
  public func store(_ hash: UInt64) {
    pointer.pointee = hash
  }

  /// The checksum so far.
  @inlinable
  public var hash: UInt64 { pointer.pointee }

  /// Returns the checksum and frees the storage.
  public func finish() -> UInt64 {
    defer { pointer.deallocate() }
    return pointer.pointee
  }
}

/// Moves a value that is not `Sendable` (an OpenCombine subject, say) into a `@Sendable`
/// closure. Unchecked: the workloads hand the value to exactly one other thread and the
/// publisher types involved are thread-safe by their contract.
public struct Unchecked<Value>: @unchecked Sendable {
  public let value: Value
  public init(_ value: Value) { self.value = value }
}

/// Runs `body` on a new thread (not a dispatch or concurrency worker), detached.
public func runOnNewThread(_ body: @escaping @Sendable () -> Void) {
  let thread = Thread(block: body)
  thread.start()
}
