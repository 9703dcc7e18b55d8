import Confluence
import XCTest

/// Something a test left running that can be stopped once the test is over.
internal protocol RetirableAtTestEnd: AnyObject {
  /// Stops it quietly: cancels what it holds, and reports nothing more.
  func retireAtTestEnd()
}

/// Runs `cleanup` once the running test case has finished (after its `tearDown`), after
/// the test's ``TestSubscriber``s were cancelled and before its ``TestScheduler``s drop the
/// actions still waiting on them.
///
/// For test doubles that keep what subscribes to them (a hand-driven publisher keeps its
/// subscriber for the whole test): letting go of it at the end breaks the cycles such a
/// double makes with operators that keep their upstream publisher (`retry`), so that a leak
/// checker run over the test suite reports only real leaks.
///
/// ```swift
/// final class HandDrivenPublisher: Publisher {
///   private var subscriber: AnySubscriber<Int, Never>?
///   init() { runWhenTheTestEnds { [weak self] in self?.subscriber = nil } }
///   …
/// }
/// ```
public func runWhenTheTestEnds(_ cleanup: @escaping () -> Void) {
  TestSubscriberRetirement.shared.register(cleanup: cleanup)
}

/// Cancels, when each test case finishes, the ``TestSubscriber``s made while it ran.
///
/// A subscriber that keeps its subscription and a publisher that keeps its subscriber
/// (Apple's subjects keep theirs until cancelled or completed; many operators keep their
/// downstream) hold each other alive: a test that ends with a subscription still live would
/// leave the whole chain allocated until the process exits, which is what a leak checker
/// reports. Retiring the test's subscribers at its end breaks those cycles, as the end of
/// the test's scope would for an `AnyCancellable`. Then the cleanups registered with
/// ``runWhenTheTestEnds(_:)`` run, and last the test's ``TestScheduler``s drop the actions
/// nobody advanced them to (an action holds what scheduled it, which holds the scheduler).
/// It happens after `tearDown`, through an XCTest observer registered the first time a
/// `TestSubscriber` or `TestScheduler` is made. Swift Testing has no such hook; what a Swift
/// Testing test makes is not registered, and is freed with the test's own references.
internal final class TestSubscriberRetirement: NSObject, XCTestObservation, @unchecked Sendable {
  // @unchecked Sendable: the lists are read and written only under `lock`.
  private struct Entry {
    weak var object: (any RetirableAtTestEnd)?
  }

  private let lock = NSLock()
  private var subscribers: [Entry] = []
  private var cleanups: [() -> Void] = []
  private var schedulers: [Entry] = []

  /// The observer; registered with XCTest on first use.
  static let shared: TestSubscriberRetirement = {
    let retirement = TestSubscriberRetirement()
    XCTestObservationCenter.shared.addTestObserver(retirement)
    return retirement
  }()

  func register(subscriber: any RetirableAtTestEnd) {
    if isRunningSwiftTestingTest { return }
    lock.lock()
    subscribers.append(Entry(object: subscriber))
    lock.unlock()
  }

  func register(scheduler: any RetirableAtTestEnd) {
    if isRunningSwiftTestingTest { return }
    lock.lock()
    schedulers.append(Entry(object: scheduler))
    lock.unlock()
  }

  func register(cleanup: @escaping () -> Void) {
    if isRunningSwiftTestingTest { return }
    lock.lock()
    cleanups.append(cleanup)
    lock.unlock()
  }

  func testCaseDidFinish(_ testCase: XCTestCase) {
    lock.lock()
    let (subscribers, cleanups, schedulers) = (self.subscribers, self.cleanups, self.schedulers)
    self.subscribers = []
    self.cleanups = []
    self.schedulers = []
    lock.unlock()
    for entry in subscribers { entry.object?.retireAtTestEnd() }
    for cleanup in cleanups { cleanup() }
    for entry in schedulers { entry.object?.retireAtTestEnd() }
  }
}
