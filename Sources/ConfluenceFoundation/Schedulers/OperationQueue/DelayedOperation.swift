import Dispatch
import Foundation

/// The operation that carries one delayed `OperationQueue` scheduler action, or one run of
/// a repeating one (``RepeatingOperationSchedule``): added to the queue at once, it is not
/// ready until its date, so the queue runs it then (and runs other operations meanwhile,
/// even on a serial queue).
///
/// Cancelling it (a repeating schedule's cancel, or `cancelAllOperations()`) makes it ready
/// at once, so the queue finishes it without running the action and it lets go of the
/// action.
///
/// `@unchecked Sendable`: `isDue` and `action` are read and written only with `lock` held;
/// the action is taken out under the lock and run once, by the queue's `main()` call.
internal final class DelayedOperation: Operation, @unchecked Sendable {
  /// The serial queue that keeps time for delayed operations and makes them ready when due.
  private static let timekeeper = DispatchQueue(label: "ConfluenceFoundation.OperationQueue.timekeeper")

  private let lock = NSLock()
  private var isDue: Bool
  private var action: (() -> Void)?

  internal init(_ action: @escaping () -> Void, after date: Date) {
    self.action = action
    let delay = date.timeIntervalSinceNow
    isDue = delay <= 0
    super.init()
    guard !isDue else { return }
    Self.timekeeper.asyncAfter(deadline: .now() + delay) { [weak self] in
      self?.becomeDue()
    }
  }

  override internal var isReady: Bool {
    lock.lock()
    let due = isDue
    lock.unlock()
    return due && super.isReady
  }

  override internal func main() {
    lock.lock()
    let action = self.action.take()
    lock.unlock()
    guard !isCancelled else { return }
    action?()
  }

  override internal func cancel() {
    super.cancel()
    lock.lock()
    let released = action.take()
    lock.unlock()
    withExtendedLifetime(released) {}
    becomeDue()
  }

  private func becomeDue() {
    lock.lock()
    let wasDue = isDue
    lock.unlock()
    guard !wasDue else { return }
    willChangeValue(forKey: "isReady")
    lock.lock()
    isDue = true
    lock.unlock()
    didChangeValue(forKey: "isReady")
  }
}
