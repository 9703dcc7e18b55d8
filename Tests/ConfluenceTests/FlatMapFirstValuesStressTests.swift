import Confluence
import Foundation
import Synchronization
import XCTest

/// `flatMap`'s first values arriving from two threads at once, each round with a downstream
/// of a type never used before, in generic code the compiler did not specialise (the test
/// module is not optimised, and the type is made at run time).
///
/// Types that generic code names only at run time (a tuple of downstream and a flag, say)
/// are made by the runtime the first time they are asked for; a thread that asks while
/// another makes one can get it before it is complete. `flatMap`'s value path once formed
/// such a tuple and crashed here about once in 400 runs of the stress tests; this class makes
/// a fresh downstream type each round, so that every round is a first time.
final class FlatMapFirstValuesStressTests: XCTestCase {
  #if CONFLUENCE_THREAD_SANITIZER
    private let rounds = 300
  #else
    private let rounds = 1500
  #endif

  func test_firstValuesFromTwoThreads_withADownstreamTypeNeverUsedBefore_eachDeliveredOnce() {
    for round in 0..<rounds {
      let delivered = FirstValuesRace.run(Int.self, nesting: round)
      XCTAssertEqual(delivered.sorted(), [0, 1], "round \(round)")
    }
  }
}

/// A type made at run time: `Nest<Nest<…<Int>>>`, one more level a round.
private struct Nest<Inner> {}

private enum FirstValuesRace {
  /// Nests `T` `nesting` times, then races two first values into a `flatMap` whose downstream
  /// is generic over the nested type; returns what downstream received.
  static func run<T>(_ type: T.Type, nesting: Int) -> [Int] {
    if nesting > 0 { return run(Nest<T>.self, nesting: nesting - 1) }
    let subscriber = RecordingSubscriber<T>()
    let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
    Publishers.Sequence<[Int], Never>(sequence: [0, 1])
      .flatMap { inners[$0] }
      .subscribe(subscriber)
    let arrived = Atomic<Int>(0)
    let group = DispatchGroup()
    for index in inners.indices {
      group.enter()
      Thread.detachNewThread {
        // Both threads spin until both are here, so that the sends start together.
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < 2 {}
        inners[index].send(index)
        group.leave()
      }
    }
    group.wait()
    subscriber.cancel()
    return subscriber.values
  }
}

/// Asks for everything and keeps what it receives; generic over a type it never uses, so
/// that each `T` makes a downstream type of its own.
private final class RecordingSubscriber<Marker>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: `received` and `subscription` are touched under `lock`.
  typealias Input = Int
  typealias Failure = Never

  private let lock = NSLock()
  private var received: [Int] = []
  private var subscription: Subscription?

  var values: [Int] { lock.withLock { received } }

  func receive(subscription: Subscription) {
    lock.withLock { self.subscription = subscription }
    subscription.request(.unlimited)
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    lock.withLock { received.append(input) }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {}

  func cancel() {
    let subscription = lock.withLock { () -> Subscription? in
      defer { self.subscription = nil }
      return self.subscription
    }
    subscription?.cancel()
  }
}
