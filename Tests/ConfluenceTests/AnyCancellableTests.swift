import Confluence
import ConfluenceTesting
import XCTest

final class AnyCancellableTests: XCTestCase {
  func test_cancel_runsClosureOnce() {
    var calls = 0
    let token = AnyCancellable { calls += 1 }
    token.cancel()
    token.cancel()
    XCTAssertEqual(calls, 1)
  }

  func test_deinit_cancels() {
    var calls = 0
    do {
      _ = AnyCancellable { calls += 1 }
    }
    XCTAssertEqual(calls, 1)
  }

  func test_initFromCancellable_forwardsCancel() {
    final class Counter: Cancellable {
      var cancels = 0
      func cancel() { cancels += 1 }
    }
    let counter = Counter()
    var token: AnyCancellable? = AnyCancellable(counter)
    token = nil
    XCTAssertNil(token)
    XCTAssertEqual(counter.cancels, 1)
  }

  func test_cancel_releasesClosure() {
    let tracker = LifetimeTracker()
    let token: AnyCancellable
    do {
      let probe = tracker.make()
      token = AnyCancellable { _ = probe }
    }
    XCTAssertEqual(tracker.liveCount, 1)
    token.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_storeInSet_andArray() {
    var set = Set<AnyCancellable>()
    var array: [AnyCancellable] = []
    var cancels = 0
    do {
      let token = AnyCancellable { cancels += 1 }
      token.store(in: &set)
      token.store(in: &set)
      token.store(in: &array)
    }
    XCTAssertEqual(set.count, 1)
    XCTAssertEqual(array.count, 1)
    set.removeAll()
    XCTAssertEqual(cancels, 0, "the array still holds the token")
    array.removeAll()
    XCTAssertEqual(cancels, 1)
  }

  func test_cancellableStore_wrapsInAnyCancellable() {
    final class Counter: Cancellable {
      var cancels = 0
      func cancel() { cancels += 1 }
    }
    let counter = Counter()
    var set = Set<AnyCancellable>()
    counter.store(in: &set)
    var array = ContiguousArray<AnyCancellable>()
    counter.store(in: &array)
    XCTAssertEqual(set.count, 1)
    set.removeAll()
    array.removeAll()
    XCTAssertEqual(counter.cancels, 2)
  }

  func test_hashableByIdentity() {
    let a = AnyCancellable {}
    let b = AnyCancellable {}
    XCTAssertEqual(a, a)
    XCTAssertNotEqual(a, b)
    XCTAssertEqual(Set([a, a, b]).count, 2)
  }

  func test_concurrentCancel_runsClosureOnce() {
    final class Box: @unchecked Sendable {
      let lock = NSLock()
      var count = 0
    }
    let box = Box()
    let token = AnyCancellable {
      box.lock.lock()
      box.count += 1
      box.lock.unlock()
    }
    DispatchQueue.concurrentPerform(iterations: 64) { _ in token.cancel() }
    XCTAssertEqual(box.count, 1)
  }
}
