import Confluence
import Synchronization

/// Keeps what a scenario thread made (a sink's cancellable, a connection) alive until the
/// checks ran: a cancellable dropped at the end of the thread's body would cancel.
final class RaceKeeper: Sendable {
  private let cancellables = RaceLocked<[AnyCancellable]>([])

  func keep(_ sink: RaceSink) {
    keep(sink.cancellable)
  }

  func keep(_ cancellable: AnyCancellable) {
    cancellables.withLock { $0.append(cancellable) }
  }

  /// Cancels everything kept (a scenario that must leave nothing subscribed).
  func cancelAll() {
    let all = cancellables.withLock { kept -> [AnyCancellable] in
      defer { kept = [] }
      return kept
    }
    for cancellable in all {
      cancellable.cancel()
    }
  }
}
