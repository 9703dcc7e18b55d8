import Confluence
import XCTest

/// Pipeline shapes that Swift 6.3.1's optimiser once stopped on ("too many/large bit fields
/// allocated in function", in its `Mem2Reg` pass), compiled here optimised as an app's
/// release build compiles them: that this file compiles is the first check, the values the
/// second.
///
/// The subscribe path of a pipeline is inlined into the function that subscribes it, so that
/// it is specialised there. Each stage's upstream was borrowed inside its downstream's borrow,
/// one borrow scope deeper per stage, and the optimiser's lifetime completion recurses once
/// per scope with a bit field of its own; from about five stages over a subject (fewer when
/// the pipeline was built in several `let`s, or subscribed with `subscribe(_:)` by a
/// subscriber class of the app's own), it ran out of them. In specialised code each stage now
/// hands its relay to its upstream owned (`Publisher._subscribeUpstream(_:)`), so
/// that nothing nests, and the operators' publishers and relays have eager-move lifetimes
/// (`@_eagerMove`). `Scripts/optimiser-fuzz` compiles random pipelines the same way to look
/// for shapes not known yet; the ones here are those found.
final class OptimiserLimitTests: XCTestCase {
  @inline(never)
  private func fiveStages(_ subject: PassthroughSubject<Int, Never>, _ out: IntCollector) -> AnyCancellable {
    subject.map { $0 * 10 }.filter { $0 > 10 }.map { $0 + 1 }.filter { $0 % 3 != 0 }.map { $0 + 1 }
      .sink { out.values.append($0) }
  }

  @inline(never)
  private func builtInTwoLets(_ subject: PassthroughSubject<Int, Never>, _ out: IntCollector) -> AnyCancellable {
    let head = subject.map { $0 * 10 }.filter { $0 > 10 }.map { $0 + 1 }
    let tail = head.filter { $0 % 3 != 0 }.map { $0 + 1 }
    return tail.sink { out.values.append($0) }
  }

  @inline(never)
  private func twoPairsToASubscriberClass(_ subject: PassthroughSubject<Int, Never>, _ out: IntCollector) {
    subject.map { $0 * 10 }.filter { $0 > 10 }.map { $0 + 1 }.filter { $0 % 3 != 0 }.subscribe(out)
  }

  @inline(never)
  private func mixedInTwoLets(_ subject: CurrentValueSubject<Int, Never>, _ out: IntCollector) -> AnyCancellable {
    let head = subject.map { $0 * 10 }.removeDuplicates().filter { $0 > 10 }
    let tail = head.scan(0, +).map { $0 + 1 }.filter { $0 % 2 == 1 }
    return tail.sink { out.values.append($0) }
  }

  @inline(never)
  private func flatMapAndZipInTwoLets(_ subject: PassthroughSubject<Int, Never>, _ out: IntCollector) -> AnyCancellable
  {
    let head = subject.map { $0 * 10 }.flatMap { Just($0) }.filter { $0 > 10 }
    let tail = head.zip(subject.map { $0 + 1 }.filter { $0 > 2 }).map { $0 + $1 }.filter { $0 > 3 }.map { $0 + 1 }
    return tail.sink { out.values.append($0) }
  }

  @inline(never)
  private func switchToLatestBetweenTwoLets(_ subject: PassthroughSubject<Int, Never>, _ out: IntCollector)
    -> AnyCancellable
  {
    let head = subject.map { $0 * 10 }.filter { $0 > 10 }.map { Just($0) }.switchToLatest()
    let tail = head.map { $0 + 1 }.filter { $0 % 3 != 0 }.map { $0 + 1 }
    return tail.sink { out.values.append($0) }
  }

  @inline(never)
  private func sevenStagesInThreeLets(_ subject: PassthroughSubject<Int, Never>, _ out: IntCollector) -> AnyCancellable
  {
    let head = subject.map { $0 + 1 }.filter { $0 > 1 }
    let middle = head.removeDuplicates().scan(0, +)
    let tail = middle.map { $0 + 3 }.filter { $0 > 3 }.map { $0 + 1 }
    return tail.sink { out.values.append($0) }
  }

  @inline(never)
  private func fanInsAndSwitchInThreeLets(
    _ subject: CurrentValueSubject<Int, Never>, _ other: PassthroughSubject<Int, Never>, _ out: IntCollector
  ) -> AnyCancellable {
    let head = subject.zip(other.map { $0 + 1 }).map { $0 + $1 }.combineLatest(Just(1)).map { $0 + $1 }
    let middle = head.scan(0, +).map { Just($0) }.switchToLatest()
    let tail = middle.filter { $0 % 3 != 0 }.scan(0, +)
    return tail.sink { out.values.append($0) }
  }

  @inline(never)
  private func nineteenStagesInOneExpression(
    _ subject: PassthroughSubject<Int, Never>, _ other: PassthroughSubject<Int, Never>, _ out: IntCollector
  ) -> AnyCancellable {
    // Closures typed in full: with `$0` throughout, the expression does not type-check in
    // reasonable time (with Apple's Combine neither; the operators are overloaded the same way).
    subject.zip(other.map { (x: Int) -> Int in x + 1 }).map { (a: Int, b: Int) -> Int in a + b }
      .combineLatest(Just(0)).map { (a: Int, b: Int) -> Int in a + b }
      .drop(while: { (x: Int) -> Bool in x < 0 }).scan(0, +).removeDuplicates()
      .handleEvents(receiveOutput: { (_: Int) in }).flatMap { (x: Int) -> Just<Int> in Just(x) }
      .filter { (x: Int) -> Bool in x % 2 != 0 }.drop(while: { (x: Int) -> Bool in x < 0 })
      .filter { (x: Int) -> Bool in x % 7 != 0 }.collect(2).map { (xs: [Int]) -> Int in xs.reduce(0, +) }
      .removeDuplicates().prefix(while: { (x: Int) -> Bool in x < 1_000_000 })
      .map { (x: Int) -> Just<Int> in Just(x) }.switchToLatest().compactMap { (x: Int) -> Int? in x > 2 ? x : nil }
      .removeDuplicates()
      .sink { out.values.append($0) }
  }

  func test_fiveStagesOverASubject() {
    let subject = PassthroughSubject<Int, Never>()
    let out = IntCollector()
    let cancellable = fiveStages(subject, out)
    for value in 1...4 { subject.send(value) }
    XCTAssertEqual(
      out.values, Array((1...4).map { $0 * 10 }.filter { $0 > 10 }.map { $0 + 1 }.filter { $0 % 3 != 0 }.map { $0 + 1 })
    )
    cancellable.cancel()
  }

  func test_builtInTwoLets() {
    let subject = PassthroughSubject<Int, Never>()
    let out = IntCollector()
    let cancellable = builtInTwoLets(subject, out)
    for value in 1...4 { subject.send(value) }
    XCTAssertEqual(out.values, [32, 42], "20, 30, 40 pass; 21 is a multiple of three")
    cancellable.cancel()
  }

  func test_twoPairsToASubscriberClass() {
    let subject = PassthroughSubject<Int, Never>()
    let out = IntCollector()
    twoPairsToASubscriberClass(subject, out)
    for value in 1...4 { subject.send(value) }
    XCTAssertEqual(out.values, [31, 41], "10 is dropped by the first test, 21 by the second")
    subject.send(completion: .finished)
  }

  func test_mixedInTwoLets() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let out = IntCollector()
    let cancellable = mixedInTwoLets(subject, out)
    for value in [2, 2, 3] { subject.send(value) }
    // 10 is dropped by the filter; 20, (20 again removed), 30: running sums 20, 50, each + 1.
    XCTAssertEqual(out.values, [21, 51])
    cancellable.cancel()
  }

  func test_flatMapAndZipInTwoLets() {
    let subject = PassthroughSubject<Int, Never>()
    let out = IntCollector()
    let cancellable = flatMapAndZipInTwoLets(subject, out)
    for value in 1...3 { subject.send(value) }
    // Left: 20, 30 (10 dropped); right: 3, 4 (2 dropped). Pairs (20, 3), (30, 4).
    XCTAssertEqual(out.values, [24, 35])
    cancellable.cancel()
  }

  func test_switchToLatestBetweenTwoLets() {
    let subject = PassthroughSubject<Int, Never>()
    let out = IntCollector()
    let cancellable = switchToLatestBetweenTwoLets(subject, out)
    for value in 1...4 { subject.send(value) }
    // 20, 30, 40 pass the first test; + 1 gives 21 (a multiple of three, dropped), 31, 41.
    XCTAssertEqual(out.values, [32, 42])
    cancellable.cancel()
  }

  func test_sevenStagesInThreeLets() {
    let subject = PassthroughSubject<Int, Never>()
    let out = IntCollector()
    let cancellable = sevenStagesInThreeLets(subject, out)
    for value in [0, 1, 1, 2] { subject.send(value) }
    // + 1: 1 (dropped), 2, 2 (a duplicate, removed), 3; running sums 2, 5; + 3, + 1.
    XCTAssertEqual(out.values, [6, 9])
    cancellable.cancel()
  }

  func test_fanInsAndSwitchInThreeLets() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let other = PassthroughSubject<Int, Never>()
    let out = IntCollector()
    let cancellable = fanInsAndSwitchInThreeLets(subject, other, out)
    other.send(1)
    subject.send(2)
    other.send(2)
    // Pairs (1, 2) and (2, 3), each + 1: 4, 6; running sums 4, 10 (both pass); sums 4, 14.
    XCTAssertEqual(out.values, [4, 14])
    cancellable.cancel()
  }

  func test_nineteenStagesInOneExpression() {
    let subject = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<Int, Never>()
    let out = IntCollector()
    let cancellable = nineteenStagesInOneExpression(subject, other, out)
    for value in 1...20 {
      subject.send(value)
      other.send(value)
    }
    var expected: [Int] = []
    var sum = 0
    var previous: Int?
    var odd: [Int] = []
    var previousPair: Int?
    for value in 1...20 {
      // Zipped with value + 1, added, combined with 0: 2 × value + 1; running sums v × (v + 2).
      sum += value + (value + 1)
      guard sum != previous else { continue }
      previous = sum
      guard sum % 2 != 0, sum % 7 != 0 else { continue }
      odd.append(sum)
      guard odd.count == 2 else { continue }
      let pair = odd[0] + odd[1]
      odd = []
      guard pair != previousPair else { continue }
      previousPair = pair
      if pair > 2 { expected.append(pair) }
    }
    XCTAssertEqual(expected, [18, 242, 450], "odd sums not multiples of seven: 3, 15, 99, 143, 195, 255, 323")
    XCTAssertEqual(out.values, expected)
    cancellable.cancel()
  }
}
