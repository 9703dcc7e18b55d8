import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import Synchronization
import XCTest

/// `receive(on:)` and `delay` onto dispatch queues with upstream sending from its own thread:
/// the events cross from that thread to the queue's through the operators' queue of pending
/// events, which takes no lock per event; these check that crossing under load (and, in CI,
/// under the thread sanitizer).
final class SchedulerHopStressTests: XCTestCase {
  private let queues = [
    DispatchQueue(label: "hop.serial"), DispatchQueue(label: "hop.concurrent", attributes: .concurrent),
  ]

  private let members: [(String, (PassthroughSubject<Int, Never>, DispatchQueue) -> AnyPublisher<Int, Never>)] = [
    ("receive(on:)", { $0.receive(on: $1).eraseToAnyPublisher() }),
    ("delay", { $0.delay(for: .zero, scheduler: $1).eraseToAnyPublisher() }),
  ]

  func test_valuesSentFromAnotherThread_arriveInOrder_oneAtATime() {
    let count = 3000
    for queue in queues {
      for (member, make) in members {
        for _ in 0..<10 {
          let subject = PassthroughSubject<Int, Never>()
          let received = Mutex<[Int]>([])
          let inside = Atomic<Int>(0)
          let overlaps = Atomic<Int>(0)
          let done = DispatchSemaphore(value: 0)
          let cancellable = make(subject, queue).sink(
            receiveCompletion: { _ in done.signal() },
            receiveValue: { value in
              if inside.wrappingAdd(1, ordering: .relaxed).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
              received.withLock { $0.append(value) }
              inside.subtract(1, ordering: .relaxed)
            })
          Thread {
            for value in 0..<count { subject.send(value) }
            subject.send(completion: .finished)
          }.start()
          XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "\(member) on \(queue.label)")
          XCTAssertEqual(received.withLock { $0 }, Array(0..<count), "\(member) on \(queue.label)")
          XCTAssertEqual(overlaps.load(ordering: .relaxed), 0, "\(member) on \(queue.label)")
          withExtendedLifetime(cancellable) {}
        }
      }
    }
  }

  func test_cancelWhileValuesFlow_leavesAnInOrderPrefix_andFreesEverything() {
    for queue in queues {
      for (member, make) in members {
        for run in 0..<10 {
          let tracker = LifetimeTracker()
          let subject = PassthroughSubject<Int, Never>()
          let received = Mutex<[Int]>([])
          let finished = DispatchSemaphore(value: 0)
          var cancellable: AnyCancellable? = make(subject, queue).sink { [probe = tracker.make()] value in
            withExtendedLifetime(probe) { received.withLock { $0.append(value) } }
          }
          Thread {
            for value in 0..<2000 { subject.send(value) }
            finished.signal()
          }.start()
          if run % 2 == 1 { Thread.sleep(forTimeInterval: 0.0005) }
          cancellable?.cancel()
          cancellable = nil
          XCTAssertEqual(finished.wait(timeout: .now() + 60), .success)
          // The actions already scheduled still run (and drop their values); the last one
          // lets go of the subscriber.
          let deadline = Date().addingTimeInterval(30)
          while tracker.liveCount > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
          XCTAssertEqual(tracker.liveCount, 0, "\(member) on \(queue.label)")
          let values = received.withLock { $0 }
          XCTAssertEqual(values, Array(0..<values.count), "\(member) on \(queue.label)")
        }
      }
    }
  }
}
