import Confluence
import Dispatch

/// `receive(on: queue)` makes its delivery action into a dispatch block once per subscription
/// and hands the queue that same block for every event: `async` then only retains it, where
/// a new closure per event would cost a new block (an allocation on the sending thread,
/// freed on the queue's). Scheduling the prepared block is what `schedule(options: nil, _:)`
/// does with the action: one `async` on this queue.
extension DispatchQueue: PreparedActionScheduler {
  @usableFromInline
  package func prepare(_ action: @escaping () -> Void) -> any PreparedSchedulerAction {
    DispatchPreparedAction(queue: self, block: Self.sendableBlock(action))
  }
}

/// An action made into a dispatch block once, scheduled on its queue as often as asked.
final class DispatchPreparedAction: PreparedSchedulerAction {
  private let queue: DispatchQueue
  private let block: @Sendable @convention(block) () -> Void

  init(queue: DispatchQueue, block: @escaping @Sendable @convention(block) () -> Void) {
    self.queue = queue
    self.block = block
  }

  @usableFromInline
  func schedule() {
    queue.async(execute: block)
  }
}
