import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import Synchronization
import XCTest

/// `receive(on:)` and `delay` onto a *concurrent* DispatchQueue (as the News chapter's API
/// does): the queue may run two scheduled actions at once, yet the subscriber still gets
/// the events in order, one at a time — the completion never overtakes the value.
final class ConcurrentQueueHopTests: XCTestCase {
  private let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)

  private func assertInOrder<P: Publisher>(
    runs: Int, _ make: () -> P, file: StaticString = #filePath, line: UInt = #line
  ) where P.Output == Int, P.Failure == Never {
    let lost = Mutex(0)
    let overlapping = Mutex(0)
    let group = DispatchGroup()
    var cancellables: [AnyCancellable] = []
    for _ in 0..<runs {
      group.enter()
      let received = Mutex<[Int]>([])
      let inside = Mutex(0)
      cancellables.append(
        make().sink(
          receiveCompletion: { _ in
            if received.withLock({ $0 }) != [1, 2, 3] { lost.withLock { $0 += 1 } }
            group.leave()
          },
          receiveValue: { value in
            if inside.withLock({
              $0 += 1; return $0
            }) > 1 {
              overlapping.withLock { $0 += 1 }
            }
            received.withLock { $0.append(value) }
            inside.withLock { $0 -= 1 }
          }))
    }
    XCTAssertEqual(group.wait(timeout: .now() + 30), .success, file: file, line: line)
    XCTAssertEqual(lost.withLock { $0 }, 0, "runs where the completion overtook a value", file: file, line: line)
    XCTAssertEqual(overlapping.withLock { $0 }, 0, file: file, line: line)
    withExtendedLifetime(cancellables) {}
  }

  func test_receiveOn_concurrentQueue_keepsOrder() {
    assertInOrder(runs: 2000) { [1, 2, 3].publisher.receive(on: queue) }
  }

  func test_delay_concurrentQueue_keepsOrder() {
    assertInOrder(runs: 500) { [1, 2, 3].publisher.delay(for: .milliseconds(1), scheduler: queue) }
  }
}
