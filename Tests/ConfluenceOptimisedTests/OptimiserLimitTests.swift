import Confluence
import XCTest

/// Pipeline shapes that Swift 6.3.1's optimiser once stopped on ("too many/large bit fields
/// allocated in function", in its `Mem2Reg` pass), compiled here optimised as an app's
/// release build compiles them: that this file compiles is the first check, the values the
/// second.
///
/// The subscribe path of a pipeline is inlined into the function that subscribes it, so that
/// it is specialised there. Each level's publisher, relay and closure borrowed with a lexical
/// lifetime nested one borrow scope deeper, and the optimiser's lifetime completion recurses
/// once per scope with a bit field of its own; from about five stages over a subject (fewer
/// when the pipeline was built in two `let`s, or subscribed with `subscribe(_:)` by a
/// subscriber class of the app's own), it ran out of them. The operators' publishers and
/// relays now have eager-move lifetimes (`@_eagerMove`), which opens no such scopes, and
/// `subscribe(_:)` reports to an enabled introspection out of line. That raises the depth
/// where it stops; the shapes known to still stop it are in COMPATIBILITY.md.
final class OptimiserLimitTests: XCTestCase {
  private final class Collector: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var values: [Int] = []
    func receive(subscription: Subscription) { subscription.request(.unlimited) }
    func receive(_ input: Int) -> Subscribers.Demand {
      values.append(input)
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) {}
  }

  @inline(never)
  private func fiveStages(_ subject: PassthroughSubject<Int, Never>, _ out: Collector) -> AnyCancellable {
    subject.map { $0 * 10 }.filter { $0 > 10 }.map { $0 + 1 }.filter { $0 % 3 != 0 }.map { $0 + 1 }
      .sink { out.values.append($0) }
  }

  @inline(never)
  private func builtInTwoLets(_ subject: PassthroughSubject<Int, Never>, _ out: Collector) -> AnyCancellable {
    let head = subject.map { $0 * 10 }.filter { $0 > 10 }.map { $0 + 1 }
    let tail = head.filter { $0 % 3 != 0 }.map { $0 + 1 }
    return tail.sink { out.values.append($0) }
  }

  @inline(never)
  private func twoPairsToASubscriberClass(_ subject: PassthroughSubject<Int, Never>, _ out: Collector) {
    subject.map { $0 * 10 }.filter { $0 > 10 }.map { $0 + 1 }.filter { $0 % 3 != 0 }.subscribe(out)
  }

  @inline(never)
  private func mixedInTwoLets(_ subject: CurrentValueSubject<Int, Never>, _ out: Collector) -> AnyCancellable {
    let head = subject.map { $0 * 10 }.removeDuplicates().filter { $0 > 10 }
    let tail = head.scan(0, +).map { $0 + 1 }.filter { $0 % 2 == 1 }
    return tail.sink { out.values.append($0) }
  }

  @inline(never)
  private func flatMapAndZipInTwoLets(_ subject: PassthroughSubject<Int, Never>, _ out: Collector) -> AnyCancellable {
    let head = subject.map { $0 * 10 }.flatMap { Just($0) }.filter { $0 > 10 }
    let tail = head.zip(subject.map { $0 + 1 }.filter { $0 > 2 }).map { $0 + $1 }.filter { $0 > 3 }.map { $0 + 1 }
    return tail.sink { out.values.append($0) }
  }

  func test_fiveStagesOverASubject() {
    let subject = PassthroughSubject<Int, Never>()
    let out = Collector()
    let cancellable = fiveStages(subject, out)
    for value in 1...4 { subject.send(value) }
    XCTAssertEqual(
      out.values, Array((1...4).map { $0 * 10 }.filter { $0 > 10 }.map { $0 + 1 }.filter { $0 % 3 != 0 }.map { $0 + 1 })
    )
    cancellable.cancel()
  }

  func test_builtInTwoLets() {
    let subject = PassthroughSubject<Int, Never>()
    let out = Collector()
    let cancellable = builtInTwoLets(subject, out)
    for value in 1...4 { subject.send(value) }
    XCTAssertEqual(out.values, [32, 42], "20, 30, 40 pass; 21 is a multiple of three")
    cancellable.cancel()
  }

  func test_twoPairsToASubscriberClass() {
    let subject = PassthroughSubject<Int, Never>()
    let out = Collector()
    twoPairsToASubscriberClass(subject, out)
    for value in 1...4 { subject.send(value) }
    XCTAssertEqual(out.values, [31, 41], "10 is dropped by the first test, 21 by the second")
    subject.send(completion: .finished)
  }

  func test_mixedInTwoLets() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let out = Collector()
    let cancellable = mixedInTwoLets(subject, out)
    for value in [2, 2, 3] { subject.send(value) }
    // 10 is dropped by the filter; 20, (20 again removed), 30: running sums 20, 50, each + 1.
    XCTAssertEqual(out.values, [21, 51])
    cancellable.cancel()
  }

  func test_flatMapAndZipInTwoLets() {
    let subject = PassthroughSubject<Int, Never>()
    let out = Collector()
    let cancellable = flatMapAndZipInTwoLets(subject, out)
    for value in 1...3 { subject.send(value) }
    // Left: 20, 30 (10 dropped); right: 3, 4 (2 dropped). Pairs (20, 3), (30, 4).
    XCTAssertEqual(out.values, [24, 35])
    cancellable.cancel()
  }
}
