import BenchSupport
import Confluence
import ConfluenceNetworking
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `http-lines` workload over ConfluenceNetworking (issue 36), and what a subscriber that
/// stops asking costs it.
public enum HTTPLinesWorkloads {
  /// N lines through `linesPublisher(for:)` into a sink with unlimited demand.
  @Sendable
  public static func lines(_ n: Int) -> UInt64 {
    let done = DispatchSemaphore(value: 0)
    let hash = LineChecksum()
    let cancellable = URLSession.shared.linesPublisher(for: HTTPLines.url(n))
      .sink(
        receiveCompletion: { _ in done.signal() },
        receiveValue: { hash.value = HTTPLines.mix(hash.value, $0) })
    done.wait()
    cancellable.cancel()
    return hash.value
  }

  /// A subscriber that asks for one line and then nothing: returns the bytes the server
  /// could write before its writes blocked.
  public static func slowSubscriber() -> Int {
    LinesServer.shared.resetFirehose()
    let subscriber = OneLineSubscriber()
    URLSession.shared.linesPublisher(for: HTTPLines.firehoseURL).subscribe(subscriber)
    let deadline = Date(timeIntervalSinceNow: 20)
    while LinesServer.shared.lastFirehoseBytes == nil, Date() < deadline { usleep(10_000) }
    subscriber.cancel()
    return LinesServer.shared.lastFirehoseBytes ?? -1
  }
}

/// Holds a checksum across the sink's closure (a class, so the closure captures no `var`).
final class LineChecksum: @unchecked Sendable {
  // @unchecked Sendable: written by the one connection queue that delivers, read after the
  // completion was signalled.
  var value = Work.seed
}

/// Asks for one line, then for nothing.
final class OneLineSubscriber: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: `subscription` is guarded by `lock`.
  typealias Input = String
  typealias Failure = HTTPStreamError

  private let lock = NSLock()
  private var subscription: Subscription?

  func receive(subscription: Subscription) {
    lock.withLock { self.subscription = subscription }
    subscription.request(.max(1))
  }

  func receive(_ input: String) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<HTTPStreamError>) {}

  func cancel() {
    lock.withLock {
      defer { subscription = nil }
      return subscription
    }?.cancel()
  }
}
