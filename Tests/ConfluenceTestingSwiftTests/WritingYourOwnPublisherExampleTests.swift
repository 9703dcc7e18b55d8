import Confluence
import ConfluenceTesting
import Foundation
import Testing

// The article "Writing your own publisher"'s example, as printed there (plus the
// `@unchecked Sendable` a Swift 6 test target wants: its state is guarded by `lock`),
// verified as the article shows.

struct Countdown: Publisher {
  typealias Output = Int
  typealias Failure = Never
  let count: Int

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriber.receive(subscription: Inner(subscriber, count))
  }

  private final class Inner<S: Subscriber>: Subscription, @unchecked Sendable where S.Input == Int, S.Failure == Never {
    private let lock = NSLock()
    private var downstream: S?
    private var remaining: Int
    private var demand = Subscribers.Demand.none
    private var delivering = false

    init(_ downstream: S, _ count: Int) { self.downstream = downstream; remaining = count }

    func request(_ more: Subscribers.Demand) {
      lock.lock()
      demand += more  // rules 3 and 4
      guard !delivering else { lock.unlock(); return }  // rules 10 and 11: the loop below takes it
      delivering = true
      while demand > 0, remaining > 0, let downstream {  // rule 2; nil after cancel (rules 7–9)
        demand -= 1
        let value = remaining
        remaining -= 1
        lock.unlock()
        let extra = downstream.receive(value)  // never call out holding the lock
        lock.lock()
        demand += extra
      }
      let finished = remaining == 0 ? downstream : nil
      if finished != nil { downstream = nil }  // rules 5, 6 and 12
      delivering = false
      lock.unlock()
      finished?.receive(completion: .finished)
    }

    func cancel() {
      lock.lock()
      downstream = nil  // rules 7, 8 and 13
      lock.unlock()
    }
  }
}

let countdown = PublisherVerification("Countdown", valueCounts: 0...100) { count in
  Countdown(count: count)
}

@Suite struct WritingYourOwnPublisherExampleTests {
  @Test(arguments: ContractRule.allCases)
  func countdownKeepsTheContract(rule: ContractRule) {
    let result = countdown.verify(rule)
    if rule == .requestNoneGrantsNothing {
      // The factory says nothing about request(.none): the default is that it traps.
      #expect(
        result.outcome
          == .skipped("it traps on request(.none) as API misuse; a trap can only be checked in a child process"))
    } else {
      #expect(result.outcome == .passed)
    }
  }

  @Test func countdownCountsDown() async throws {
    #expect(try await Countdown(count: 3).allValues() == [3, 2, 1])
  }
}
