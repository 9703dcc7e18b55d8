import Combine
import Dispatch
import Foundation

/// A scheduler whose clock moves only when told to, so that timing examples (debounce,
/// delay, a slow request) print the same thing on every run, however busy the machine.
///
/// It keeps Dispatch's time type, so any operator that takes a `DispatchQueue` takes it
/// too; ``advance(by:)`` runs every action that falls due, in order of due time, with
/// ``now`` set to each action's time. It is what a test scheduler does in a test suite,
/// written here in a page so the examples need nothing but `import Combine`.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// let cancellable = Just(1).delay(for: .seconds(2), scheduler: scheduler).sink { print($0) }
/// scheduler.advance(by: .seconds(2))   // prints 1
/// ```
//
// @unchecked Sendable: `clock`, `pending` and `nextOrder` are guarded by `lock`; actions
// run with the lock released.
public final class VirtualTimeScheduler: Scheduler, @unchecked Sendable {
  public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
  public typealias SchedulerOptions = Never

  private struct Pending {
    let due: SchedulerTimeType
    let order: Int
    let action: () -> Void
  }

  private let lock = NSLock()
  private let start = SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000_000_000))
  private var clock: SchedulerTimeType
  private var pending: [Pending] = []
  private var nextOrder = 0

  public init() { clock = start }

  public var now: SchedulerTimeType { lock.withLock { clock } }

  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// The virtual time since the scheduler was made, in seconds.
  public var elapsed: Double {
    Double(start.distance(to: now).magnitude) / 1_000_000_000
  }

  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    enqueue(at: now, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    enqueue(at: date, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    let repeating = Repeating()
    func fire(at due: SchedulerTimeType) {
      enqueue(at: due) {
        guard !repeating.isCancelled else { return }
        action()
        fire(at: due.advanced(by: interval))
      }
    }
    fire(at: date)
    return AnyCancellable { repeating.isCancelled = true }
  }

  /// Moves the clock forward by `stride`, running every action that falls due on the way.
  public func advance(by stride: SchedulerTimeType.Stride) {
    let target = now.advanced(by: stride)
    while let next = takeNext(dueBy: target) {
      next.action()
    }
    lock.withLock { clock = target }
  }

  private func enqueue(at due: SchedulerTimeType, _ action: @escaping () -> Void) {
    lock.withLock {
      pending.append(Pending(due: max(due, clock), order: nextOrder, action: action))
      nextOrder += 1
    }
  }

  private func takeNext(dueBy target: SchedulerTimeType) -> Pending? {
    lock.withLock {
      guard
        let index = pending.indices.min(by: {
          (pending[$0].due, pending[$0].order) < (pending[$1].due, pending[$1].order)
        }), pending[index].due <= target
      else { return nil }
      let next = pending.remove(at: index)
      clock = next.due
      return next
    }
  }

  private final class Repeating: @unchecked Sendable {
    // Read and written only by the thread that advances the scheduler.
    var isCancelled = false
  }
}
