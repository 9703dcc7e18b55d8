import Confluence
import ConfluenceTesting
import XCTest

final class MergeTests: XCTestCase {
  func test_interleavesValuesFromBothUpstreams() {
    let a = ManualPublisher<Int, TestError>()
    let b = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    a.merge(with: b).subscribe(subscriber)
    a.send(1)
    b.send(2)
    a.send(3)
    XCTAssertEqual(subscriber.events, [.subscription("Merge"), .value(1), .value(2), .value(3)])
    XCTAssertEqual(a.requested, [.unlimited])
    XCTAssertEqual(b.requested, [.unlimited])
  }

  func test_finishesWhenAllFinish() {
    let a = ManualPublisher<Int, TestError>()
    let b = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    Publishers.Merge(a, b).subscribe(subscriber)
    a.finish()
    XCTAssertNil(subscriber.completion)
    b.send(9)
    b.finish()
    XCTAssertEqual(subscriber.events, [.subscription("Merge"), .value(9), .completion(.finished)])
  }

  func test_anyFailure_failsAndCancelsTheOthers() {
    let a = ManualPublisher<Int, TestError>()
    let b = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    a.merge(with: b).subscribe(subscriber)
    b.fail(TestError("b"))
    XCTAssertEqual(subscriber.completion, .failure(TestError("b")))
    XCTAssertEqual(a.cancels, 1)
    a.send(1)
    XCTAssertEqual(subscriber.values, [])
  }

  func test_finiteDemand_asksEachUpstreamForOneAtATime() {
    let a = ManualPublisher<Int, TestError>()
    let b = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    a.merge(with: b).subscribe(subscriber)
    XCTAssertEqual(a.requested, [.max(1)])
    XCTAssertEqual(b.requested, [.max(1)])
    a.send(1)
    b.send(2)
    XCTAssertEqual(subscriber.values, [1], "2 waits for demand")
    XCTAssertEqual(a.requested, [.max(1), .max(1)], "a delivered, so it is asked for another")
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(b.requested, [.max(1), .max(1)])
  }

  func test_synchronousUpstreams_areConcatenatedInOrder() {
    let subscriber = TestSubscriber<Int, Never>()
    Publishers.Merge3([1, 2].publisher, [3].publisher, [4, 5].publisher).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4, 5])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_mergeWithGrowsToMerge8() {
    let p = [1].publisher
    let merged: Publishers.Merge8 = p.merge(with: p, p, p, p, p, p, p)
    let grown: Publishers.Merge8 = p.merge(with: p).merge(with: p, p, p, p, p, p)
    let subscriber = TestSubscriber<Int, Never>()
    merged.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, Array(repeating: 1, count: 8))
    let other = TestSubscriber<Int, Never>()
    grown.subscribe(other)
    XCTAssertEqual(other.values.count, 8)
    let m4: Publishers.Merge4 = Publishers.Merge3(p, p, p).merge(with: p)
    let m7: Publishers.Merge7 = Publishers.Merge5(p, p, p, p, p).merge(with: p, p)
    XCTAssertEqual(m4, Publishers.Merge4(p, p, p, p))
    XCTAssertEqual(m7.g, p)
  }

  func test_mergeMany_variadicAndSequence() {
    let subscriber = TestSubscriber<Int, Never>()
    Publishers.MergeMany([1].publisher, [2].publisher).merge(with: [3].publisher).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    let fromSequence = TestSubscriber<Int, Never>()
    Publishers.MergeMany((1...4).map { Just($0) }).subscribe(fromSequence)
    XCTAssertEqual(fromSequence.values, [1, 2, 3, 4])
    XCTAssertEqual(fromSequence.completion, .finished)
  }

  func test_mergeWithSameType_returnsMergeMany() {
    let merged: Publishers.MergeMany<Just<Int>> = Just(1).merge(with: Just(2))
    let subscriber = TestSubscriber<Int, Never>()
    merged.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
  }

  func test_mergeManyOfNothing_finishesAtOnce() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Publishers.MergeMany<Just<Int>>([]).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Merge"), .completion(.finished)])
  }

  func test_cancelInsideReceive_cancelsAllUpstreams() {
    let a = ManualPublisher<Int, TestError>()
    let b = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    a.merge(with: b).subscribe(subscriber)
    a.send(1)
    b.send(2)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(a.cancels, 1)
    XCTAssertEqual(b.cancels, 1)
  }

  func test_finiteDemand_cancelInsideReceive_endsEverything() {
    let a = ManualPublisher<Int, TestError>()
    let b = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    a.merge(with: b).subscribe(subscriber)
    XCTAssertEqual(a.requested, [.max(1)])
    a.send(1)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(a.cancels, 1)
    XCTAssertEqual(b.cancels, 1)
    b.send(2)
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_concurrentUpstreams_deliverSerially() {
    let upstreams = (0..<4).map { _ in ManualPublisher<Int, Never>() }
    let subscriber = TestSubscriber<Int, Never>()
    let concurrency = ConcurrencyProbe()
    subscriber.onValue = { _ in
      concurrency.enter(); concurrency.leave(); return .none
    }
    Publishers.Merge4(upstreams[0], upstreams[1], upstreams[2], upstreams[3]).subscribe(subscriber)
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      for value in 0..<300 { upstreams[index].send(value) }
      upstreams[index].finish()
    }
    XCTAssertEqual(subscriber.values.count, 1200)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(concurrency.maximum, 1)
  }
}
