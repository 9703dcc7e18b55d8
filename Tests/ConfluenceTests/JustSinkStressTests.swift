import Confluence
import Dispatch
import Synchronization
import XCTest

/// `Just` delivering straight into a `Subscribers.Sink` (no subscription object) while
/// another thread cancels the sink: the outcomes must be those of a real subscription.
final class JustSinkStressTests: XCTestCase {
  func test_sink_cancelRacingDelivery_atMostOneValueAndCompletionOnlyAfterIt() {
    final class Counts: Sendable {
      let values = Atomic<Int>(0)
      let completions = Atomic<Int>(0)
      let completionsWithoutValue = Atomic<Int>(0)
    }
    // Unchecked: the sink is thread-safe by its contract (cancel may come from any thread).
    struct Shared: @unchecked Sendable { let sink: Subscribers.Sink<Int, Never> }
    for _ in 0..<2_000 {
      let counts = Counts()
      let shared = Shared(
        sink: Subscribers.Sink(
          receiveCompletion: { _ in
            counts.completions.add(1, ordering: .relaxed)
            if counts.values.load(ordering: .relaxed) == 0 {
              counts.completionsWithoutValue.add(1, ordering: .relaxed)
            }
          },
          receiveValue: { _ in counts.values.add(1, ordering: .relaxed) }))
      DispatchQueue.concurrentPerform(iterations: 2) { side in
        if side == 0 { Just(1).subscribe(shared.sink) } else { shared.sink.cancel() }
      }
      XCTAssertLessThanOrEqual(counts.values.load(ordering: .relaxed), 1)
      XCTAssertLessThanOrEqual(counts.completions.load(ordering: .relaxed), 1)
      XCTAssertEqual(counts.completionsWithoutValue.load(ordering: .relaxed), 0)
    }
  }
}
