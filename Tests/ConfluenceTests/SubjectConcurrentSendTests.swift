import Confluence
import Foundation
import Synchronization
import XCTest

/// A send to a subject from one thread while another thread's value is being delivered to
/// the same subscriber: as with Apple's subjects, the second send waits for the first
/// delivery to return and then delivers its value itself, on its own thread, before it
/// returns. (A design that queued the value for the delivering thread would let senders
/// keep that thread delivering their values for as long as they send.)
final class SubjectConcurrentSendTests: XCTestCase {
  func test_passthroughSubject_oneSubscriber() {
    let subject = PassthroughSubject<Int, Never>()
    check(subscribers: 1, subscribe: { subject.sink(receiveValue: $0) }, send: { subject.send($0) })
  }

  func test_passthroughSubject_twoSubscribers() {
    let subject = PassthroughSubject<Int, Never>()
    check(subscribers: 2, subscribe: { subject.sink(receiveValue: $0) }, send: { subject.send($0) })
  }

  /// Limited demand (two, then one more per value): no lane, every delivery through the
  /// subject's lock. (With no demand left while 1 is delivered, 2 would be dropped at once,
  /// as Apple's subjects drop it.)
  func test_passthroughSubject_limitedDemand() {
    let subject = PassthroughSubject<Int, Never>()
    check(
      subscribers: 1,
      subscribe: { receive in
        let held = SubscriptionBox()
        subject.subscribe(
          AnySubscriber(
            receiveSubscription: { subscription in
              held.subscription = subscription
              subscription.request(.max(2))
            },
            receiveValue: { value in
              receive(value)
              return .max(1)
            },
            receiveCompletion: { _ in }))
        return AnyCancellable { held.subscription?.cancel() }
      },
      send: { subject.send($0) })
  }

  func test_currentValueSubject_oneSubscriber() {
    let subject = CurrentValueSubject<Int, Never>(0)
    check(
      subscribers: 1, subscribe: { receive in subject.dropFirst().sink(receiveValue: receive) },
      send: { subject.value = $0 })
  }

  func test_currentValueSubject_twoSubscribers() {
    let subject = CurrentValueSubject<Int, Never>(0)
    check(
      subscribers: 2, subscribe: { receive in subject.dropFirst().sink(receiveValue: receive) },
      send: { subject.send($0) })
  }

  /// `@Published`'s publisher: a current-value subject set from two threads.
  func test_publishedProperty_twoSubscribers() {
    let model = Model()
    check(
      subscribers: 2, subscribe: { receive in model.$count.dropFirst().sink(receiveValue: receive) },
      send: { model.count = $0 })
  }

  /// `ObservableObjectPublisher` sends no value: each subscriber records the value the
  /// sending thread registered before it sent.
  func test_observableObjectPublisher_twoSubscribers() {
    let publisher = ObservableObjectPublisher()
    let sentBy = Mutex<[UInt: Int]>([:])
    check(
      subscribers: 2,
      subscribe: { receive in
        publisher.sink { receive(sentBy.withLock { $0[currentThread()] ?? 0 }) }
      },
      send: { value in
        sentBy.withLock { $0[currentThread()] = value }
        publisher.send()
      })
  }

  // MARK: Two senders waiting for one delivery

  func test_passthroughSubject_twoWaitingSenders_deliverBothValues() {
    for _ in 0..<12 {
      let subject = PassthroughSubject<Int, Never>()
      checkTwoWaitingSenders(
        subscribers: 2, subscribe: { subject.sink(receiveValue: $0) }, send: { subject.send($0) })
    }
  }

  func test_currentValueSubject_twoWaitingSenders_deliverBothValues_oneSubscriber() {
    for _ in 0..<12 {
      let subject = CurrentValueSubject<Int, Never>(0)
      checkTwoWaitingSenders(
        subscribers: 1, subscribe: { subject.dropFirst().sink(receiveValue: $0) }, send: { subject.send($0) })
    }
  }

  func test_currentValueSubject_twoWaitingSenders_deliverBothValues_twoSubscribers() {
    for _ in 0..<12 {
      let subject = CurrentValueSubject<Int, Never>(0)
      checkTwoWaitingSenders(
        subscribers: 2, subscribe: { subject.dropFirst().sink(receiveValue: $0) }, send: { subject.value = $0 })
    }
  }

  func test_publishedProperty_twoWaitingSetters_deliverBothValues() {
    for _ in 0..<12 {
      let model = Model()
      checkTwoWaitingSenders(
        subscribers: 2, subscribe: { model.$count.dropFirst().sink(receiveValue: $0) }, send: { model.count = $0 })
    }
  }

  /// A sends 1, whose delivery blocks inside the first subscriber; B sends 2 and C sends 3
  /// meanwhile, and both wait (which of them goes first is up to the threads: each test
  /// repeats this twelve times, so that both orders occur). Once 1 is let through, every
  /// subscriber receives 1, 2 and 3 exactly once, B's and C's in either order. (A subject
  /// with a current value once dropped whichever of 2 and 3 lost the race to the
  /// subscriber: it kept only values newer than the one taken last.)
  private func checkTwoWaitingSenders(
    subscribers count: Int,
    subscribe: (@escaping (Int) -> Void) -> AnyCancellable,
    send: @escaping @Sendable (Int) -> Void,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let log = Mutex<[(value: Int, subscriber: Int)]>([])
    let firstIsInside = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    let cancellables = (0..<count).map { index in
      subscribe { value in
        log.withLock { $0.append((value, index)) }
        if value == 1 && index == 0 {
          firstIsInside.signal()
          releaseFirst.wait()
        }
      }
    }
    let done = DispatchSemaphore(value: 0)
    Thread {
      send(1)
      done.signal()
    }.start()
    firstIsInside.wait()
    for value in [2, 3] {
      Thread {
        send(value)
        done.signal()
      }.start()
    }
    // Long enough for both to be waiting, usually; the outcome must be the same either way.
    Thread.sleep(forTimeInterval: 0.02)
    releaseFirst.signal()
    for _ in 0..<3 {
      XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "a send did not return", file: file, line: line)
    }
    let received = log.withLock { $0 }
    for index in 0..<count {
      let mine = received.filter { $0.subscriber == index }.map(\.value)
      // Once the first subscriber is free, the three senders go on to the next one
      // independently: only the first subscriber is sure to see 1 first.
      if index == 0 { XCTAssertEqual(mine.first, 1, "subscriber \(index)", file: file, line: line) }
      XCTAssertEqual(mine.sorted(), [1, 2, 3], "subscriber \(index) received \(mine)", file: file, line: line)
    }
    withExtendedLifetime(cancellables) {}
  }

  /// A sends 1, whose delivery blocks inside the first subscriber; B sends 2 meanwhile. B's
  /// send must not return while 1 is being delivered, the first subscriber receives 1 then
  /// 2, and every subscriber receives 1 on A's thread and 2 on B's.
  private func check(
    subscribers count: Int,
    subscribe: (@escaping (Int) -> Void) -> AnyCancellable,
    send: @escaping @Sendable (Int) -> Void,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let log = Mutex<[(value: Int, subscriber: Int, thread: UInt)]>([])
    let firstIsInside = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    let cancellables = (0..<count).map { index in
      subscribe { value in
        log.withLock { $0.append((value, index, currentThread())) }
        if value == 1 && index == 0 {
          firstIsInside.signal()
          releaseFirst.wait()
        }
      }
    }
    let threads = Mutex<[Int: UInt]>([:])
    let aDone = DispatchSemaphore(value: 0)
    let bDone = DispatchSemaphore(value: 0)
    Thread {
      threads.withLock { $0[1] = currentThread() }
      send(1)
      aDone.signal()
    }.start()
    firstIsInside.wait()
    Thread {
      threads.withLock { $0[2] = currentThread() }
      send(2)
      bDone.signal()
    }.start()
    XCTAssertEqual(
      bDone.wait(timeout: .now() + 0.3), .timedOut,
      "the second send returned while the first value was still being delivered", file: file, line: line)
    releaseFirst.signal()
    XCTAssertEqual(aDone.wait(timeout: .now() + 10), .success, file: file, line: line)
    XCTAssertEqual(bDone.wait(timeout: .now() + 10), .success, file: file, line: line)

    let senders = threads.withLock { $0 }
    let received = log.withLock { $0 }
    for index in 0..<count {
      // The first subscriber receives 1, then 2. The others may be reached by B first: once
      // the first subscriber is free, A and B go on to the next one independently (as with
      // Apple's subjects, which serialise each subscriber, not each send).
      var mine = received.filter { $0.subscriber == index }
      if index > 0 { mine.sort { $0.value < $1.value } }
      XCTAssertEqual(mine.map(\.value), [1, 2], "subscriber \(index)", file: file, line: line)
      XCTAssertEqual(
        mine.map(\.thread), [senders[1], senders[2]].compactMap { $0 },
        "subscriber \(index) received each value on the thread that sent it", file: file, line: line)
    }
    withExtendedLifetime(cancellables) {}
  }
}

/// Holds a subscription for a test subscriber made of closures.
private final class SubscriptionBox: @unchecked Sendable {
  // @unchecked Sendable: written once, in `receive(subscription:)`, before any other use.
  var subscription: Subscription?
}

/// The calling thread's identity, comparable across threads.
private func currentThread() -> UInt {
  UInt(bitPattern: Int(bitPattern: pthread_self()))
}

/// An observable model whose `@Published` property the test sets from two threads.
private final class Model: ObservableObject, @unchecked Sendable {
  // @unchecked Sendable: `count` is set from two threads on purpose; its publisher is the
  // subject under test, which serialises deliveries.
  @Published var count = 0
}
