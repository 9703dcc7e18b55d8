import Confluence
import ConfluenceFoundation
import ConfluenceNetworking
import ConfluenceTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Cancels and requests racing the deliveries of the streaming publishers, from other
/// threads, while the connection's queue delivers: nothing crashes, no subscriber sees two
/// events at once or anything after its cancel returned (beyond the value in flight), every
/// connection closes. `.ci/run` runs this class under the thread sanitizer too (so it keeps to
/// the socket transport: swift-corelibs-foundation's URLSession is not what it checks).
final class StreamingStressTests: XCTestCase {
  private var server: LocalHTTPServer!

  override func setUpWithError() throws {
    server = try LocalHTTPServer()
    server.route(
      "/lines",
      .stream(contentType: "text/plain") { writer in
        var index = 0
        while index < 20_000 {
          var batch = ""
          for _ in 0..<100 {
            batch += "line \(index)\n"
            index += 1
          }
          guard writer.write(batch) else { return }
        }
      })
    server.route(
      "/events",
      .stream(contentType: "text/event-stream") { writer in
        for id in 1...5_000 {
          guard writer.write("id: \(id)\ndata: \(id)\n\n") else { return }
        }
      })
  }

  override func tearDown() {
    server.stop()
    server = nil
  }

  /// Records deliveries and flags two at once; counts what arrives after `cancel()` returned.
  private final class RaceProbe<Input>: Subscriber, @unchecked Sendable {
    // @unchecked Sendable: every stored property is guarded by `lock`.
    typealias Failure = HTTPStreamError

    private let lock = NSLock()
    private var subscription: Subscription?
    private var inside = 0
    private(set) var overlaps = 0
    private(set) var received = 0
    private(set) var afterCancel = 0
    private(set) var completed = false
    private var cancelled = false
    private let demandPerValue: Subscribers.Demand

    init(demandPerValue: Subscribers.Demand) { self.demandPerValue = demandPerValue }

    func receive(subscription: Subscription) {
      lock.withLock { self.subscription = subscription }
      subscription.request(.max(3))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      lock.withLock {
        inside += 1
        if inside > 1 { overlaps += 1 }
        received += 1
        if cancelled { afterCancel += 1 }
      }
      sched_yield()  // widens the window in which a second delivery would find this one inside
      lock.withLock { inside -= 1 }
      return demandPerValue
    }

    func receive(completion: Subscribers.Completion<HTTPStreamError>) {
      lock.withLock { completed = true }
    }

    func request(_ demand: Subscribers.Demand) {
      lock.withLock { subscription }?.request(demand)
    }

    func cancel() {
      let subscription = lock.withLock { self.subscription }
      subscription?.cancel()
      lock.withLock {
        cancelled = true
        self.subscription = nil
      }
    }

    var snapshot: (received: Int, afterCancel: Int, overlaps: Int) {
      lock.withLock { (received, afterCancel, overlaps) }
    }
  }

  private func race<P: Publisher>(_ make: () -> P, rounds: Int, file: StaticString = #filePath, line: UInt = #line)
  where P.Failure == HTTPStreamError {
    var random = SystemRandomNumberGenerator()
    for round in 0..<rounds {
      let probe = RaceProbe<P.Output>(demandPerValue: .max(1))
      make().subscribe(probe)
      // Requests from another thread while the connection delivers, then a cancel at a
      // random moment.
      let requester = Thread {
        for _ in 0..<50 {
          probe.request(.max(2))
          usleep(UInt32.random(in: 0...200))
        }
      }
      requester.start()
      usleep(UInt32.random(in: 0...20_000, using: &random))
      probe.cancel()
      let atCancel = probe.snapshot
      usleep(20_000)
      let later = probe.snapshot
      XCTAssertEqual(later.overlaps, 0, "round \(round): two deliveries at once", file: file, line: line)
      XCTAssertLessThanOrEqual(
        later.afterCancel - atCancel.afterCancel, 1, "round \(round): deliveries after cancel returned", file: file,
        line: line)
    }
  }

  func test_linesPublisher_cancelRacingDeliveriesAndRequests() {
    race({ URLSession.shared.linesPublisher(for: server.url("/lines")) }, rounds: 30)
  }

  func test_eventSourcePublisher_cancelRacingDeliveriesAndRequests() {
    race(
      { URLSession.shared.eventSourcePublisher(for: server.url("/events"), scheduler: DispatchQueue(label: "stress")) },
      rounds: 30)
  }

  func test_everyConnection_isClosed_afterTheRaces() {
    let before = openDescriptors()
    race({ URLSession.shared.linesPublisher(for: server.url("/lines")) }, rounds: 20)
    XCTAssertTrue(eventually(timeout: 5) { self.openDescriptors() <= before + 2 }, "sockets left open")
  }

  private func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
  }
}
