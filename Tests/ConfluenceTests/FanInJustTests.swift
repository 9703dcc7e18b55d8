import Confluence
import ConfluenceTesting
import XCTest

/// A `Just` of a small plain value joined by `zip` or `combineLatest` takes its own path (it
/// is not subscribed to: see `FanInJustSubscription`). These tests pin that the path is
/// invisible: every scenario gives the same history as a publisher that behaves as `Just`
/// but is subscribed to the ordinary way (`Optional.Publisher` with a value: one value, then
/// `.finished`, on the first request).
final class FanInJustTests: XCTestCase {
  /// What a scenario observed, downstream and at the other upstreams.
  private struct History: Equatable, CustomStringConvertible {
    var events: [String]
    var demands: [Subscribers.Demand]
    var upstreamRequests: [[Subscribers.Demand]]
    var upstreamCancels: [Int]

    var description: String {
      "events \(events), demands \(demands), upstream requests \(upstreamRequests), cancels \(upstreamCancels)"
    }
  }

  private enum Ending: CaseIterable {
    case none, finish, fail, finishFromInsideTheFirstValue
  }

  /// The fan-ins, each with the `Just`-like publisher (`j`) on one side or more and the
  /// manual upstreams (`m`) on the others, their output as an array.
  private typealias Build<J: Publisher> = (J, [ManualPublisher<Int, TestError>]) -> AnyPublisher<[Int], TestError>

  private static func shapes<J: Publisher>(_: J.Type) -> [(String, Build<J>)]
  where J.Output == Int, J.Failure == TestError {
    [
      ("zip(J, m)", { j, m in j.zip(m[0]).map { [$0, $1] }.eraseToAnyPublisher() }),
      ("zip(m, J)", { j, m in m[0].zip(j).map { [$0, $1] }.eraseToAnyPublisher() }),
      ("zip(m, J, m)", { j, m in m[0].zip(j, m[1]).map { [$0, $1, $2] }.eraseToAnyPublisher() }),
      ("zip(J, m, J)", { j, m in j.zip(m[0], j).map { [$0, $1, $2] }.eraseToAnyPublisher() }),
      ("zip(m, J, J, J)", { j, m in m[0].zip(j, j, j).map { [$0, $1, $2, $3] }.eraseToAnyPublisher() }),
      ("zip(m, m, m, J)", { j, m in m[0].zip(m[1], m[2], j).map { [$0, $1, $2, $3] }.eraseToAnyPublisher() }),
      ("combineLatest(J, m)", { j, m in j.combineLatest(m[0]).map { [$0, $1] }.eraseToAnyPublisher() }),
      ("combineLatest(m, J)", { j, m in m[0].combineLatest(j).map { [$0, $1] }.eraseToAnyPublisher() }),
      ("combineLatest(m, J, m)", { j, m in m[0].combineLatest(j, m[1]).map { [$0, $1, $2] }.eraseToAnyPublisher() }),
      (
        "combineLatest(m, J, J, J)",
        { j, m in m[0].combineLatest(j, j, j).map { [$0, $1, $2, $3] }.eraseToAnyPublisher() }
      ),
      (
        "combineLatest(J, m, m, m)",
        { j, m in j.combineLatest(m[0], m[1], m[2]).map { [$0, $1, $2, $3] }.eraseToAnyPublisher() }
      ),
    ]
  }

  /// Each manual upstream sends two values (whatever it was asked for: it misbehaves on
  /// purpose, to reach the buffering paths), then `ending`; downstream asks for one more,
  /// then for everything.
  private func run<J: Publisher>(
    _ build: Build<J>, _ just: J, initialDemand: Subscribers.Demand, answer: Subscribers.Demand,
    cancelAtValue: Int?, ending: Ending
  ) -> History where J.Output == Int, J.Failure == TestError {
    let upstreams = (0..<3).map { _ in ManualPublisher<Int, TestError>() }
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: initialDemand)
    var delivered = 0
    subscriber.onValue = { _ in
      delivered += 1
      if delivered == 1 && ending == .finishFromInsideTheFirstValue { upstreams[0].finish() }
      if delivered == cancelAtValue { subscriber.cancel() }
      return answer
    }
    build(just, upstreams).subscribe(subscriber)
    for round in 1...2 {
      for (index, upstream) in upstreams.enumerated() { upstream.send(index * 10 + round) }
    }
    switch ending {
    case .none, .finishFromInsideTheFirstValue: break
    case .finish: upstreams.forEach { $0.finish() }
    case .fail: upstreams[0].fail(TestError("up"))
    }
    subscriber.request(.max(1))
    subscriber.request(.unlimited)
    return History(
      events: subscriber.eventDescriptions, demands: subscriber.demands, upstreamRequests: upstreams.map(\.requested),
      upstreamCancels: upstreams.map(\.cancels))
  }

  func test_justSides_behaveAsAnySideThatDeliversAndFinishesOnTheFirstRequest() {
    let viaJust = Self.shapes(Publishers.SetFailureType<Just<Int>, TestError>.self)
    let viaSubscription = Self.shapes(Publishers.SetFailureType<Optional<Int>.Publisher, TestError>.self)
    for (index, (name, build)) in viaJust.enumerated() {
      for initialDemand in [Subscribers.Demand.none, .max(1), .max(2), .unlimited] {
        for answer in [Subscribers.Demand.none, .max(1)] {
          for cancelAtValue in [nil, 1, 2] as [Int?] {
            for ending in Ending.allCases {
              let label =
                "\(name), demand \(initialDemand), answer \(answer), cancel at \(String(describing: cancelAtValue)), \(ending)"
              let expected = run(
                viaSubscription[index].1, Optional.Publisher(7).setFailureType(to: TestError.self),
                initialDemand: initialDemand, answer: answer, cancelAtValue: cancelAtValue, ending: ending)
              let observed = run(
                build, Just(7).setFailureType(to: TestError.self), initialDemand: initialDemand, answer: answer,
                cancelAtValue: cancelAtValue, ending: ending)
              XCTAssertEqual(observed, expected, label)
            }
          }
        }
      }
    }
  }

  /// The benchmark's shape (`Zip4`/`CombineLatest4` of a subject and three `Just`s, nested,
  /// erased), failure-free, so the `Just`s are plain ones.
  func test_nestedFailureFreeJustTrees_sameHistoryAsSubscribedSides() {
    func level(_ below: AnyPublisher<Int, Never>, zip: Bool, plainJust: Bool) -> AnyPublisher<Int, Never> {
      switch (zip, plainJust) {
      case (true, true):
        return Publishers.Zip4(below, Just(1), Just(2), Just(3)).map { $0 + $1 + $2 + $3 }.eraseToAnyPublisher()
      case (true, false):
        return Publishers.Zip4(below, Optional.Publisher(1), Optional.Publisher(2), Optional.Publisher(3))
          .map { $0 + $1 + $2 + $3 }.eraseToAnyPublisher()
      case (false, true):
        return Publishers.CombineLatest4(below, Just(1), Just(2), Just(3)).map { $0 + $1 + $2 + $3 }
          .eraseToAnyPublisher()
      case (false, false):
        return Publishers.CombineLatest4(below, Optional.Publisher(1), Optional.Publisher(2), Optional.Publisher(3))
          .map { $0 + $1 + $2 + $3 }.eraseToAnyPublisher()
      }
    }
    for zip in [true, false] {
      for initialDemand in [Subscribers.Demand.none, .max(1), .unlimited] {
        var histories: [[String]] = []
        for plainJust in [true, false] {
          let root = PassthroughSubject<Int, Never>()
          var top = root.eraseToAnyPublisher()
          for _ in 0..<3 { top = level(top, zip: zip, plainJust: plainJust) }
          let subscriber = TestSubscriber<Int, Never>(initialDemand: initialDemand)
          top.subscribe(subscriber)
          root.send(100)
          subscriber.request(.max(1))
          root.send(200)
          subscriber.request(.unlimited)
          root.send(completion: .finished)
          histories.append(subscriber.eventDescriptions)
        }
        XCTAssertEqual(histories[0], histories[1], "zip \(zip), demand \(initialDemand)")
        // Each level adds 1 + 2 + 3. Without demand the `Just`s wait for it, and the
        // subject's first value is dropped. `zip` completes after its first output (its
        // `Just`s are done); `combineLatest` when the subject finishes.
        let values = initialDemand == .none ? [218] : zip ? [118] : [118, 218]
        XCTAssertEqual(Array(histories[0].dropFirst()), values.map { "value(\($0))" } + ["completion(finished)"])
      }
    }
  }

  /// A `Just` whose value is not small plain data is subscribed to as any publisher, and
  /// behaves the same.
  func test_justsOfOtherValues_areSubscribedTo() {
    let subject = PassthroughSubject<String, Never>()
    let subscriber = TestSubscriber<String, Never>(initialDemand: .unlimited)
    subject.combineLatest(Just("b"), Just(SIMD4<Double>(1, 2, 3, 4))).map { "\($0)\($1)\($2.w)" }.subscribe(subscriber)
    subject.send("a")
    subject.send("c")
    subject.send(completion: .finished)
    XCTAssertEqual(subscriber.values, ["ab4.0", "cb4.0"])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  /// A `Just` side holds its fan-in without a reference count. Here the fan-in's only holder
  /// lets go of it while the `Just`s' values, asked for by its request, are being delivered:
  /// everything still arrives, and the fan-in is freed once the request returns. (Under the
  /// address sanitizer, which CI runs the suite with, a `Just` side that reached its fan-in
  /// after it was freed would be reported.)
  func test_theOnlyHolderLettingGoDuringAJustsDelivery_stillGetsEverything() {
    final class LettingGo: Subscriber {
      var subscription: Subscription?
      var events: [String] = []
      func receive(subscription: Subscription) { self.subscription = subscription }
      func receive(_ input: Int) -> Subscribers.Demand {
        events.append("value(\(input))")
        subscription = nil
        return .none
      }
      func receive(completion: Subscribers.Completion<Never>) { events.append("completion(\(completion))") }
    }
    for zip in [true, false] {
      let subscriber = LettingGo()
      if zip {
        Just(1).zip(Just(2), Just(3)).map { (a: Int, b: Int, c: Int) -> Int in a + b + c }.subscribe(subscriber)
      } else {
        Just(1).combineLatest(Just(2), Just(3)).map { (a: Int, b: Int, c: Int) -> Int in a + b + c }
          .subscribe(subscriber)
      }
      weak let held = subscriber.subscription as AnyObject?
      XCTAssertNotNil(held, "zip \(zip)")
      subscriber.subscription?.request(.max(1))
      XCTAssertEqual(subscriber.events, ["value(6)", "completion(finished)"], "zip \(zip)")
      XCTAssertNil(subscriber.subscription, "zip \(zip)")
      XCTAssertNil(held, "zip \(zip): the fan-in outlived its last holder")
    }
  }

  /// Requests from several threads at once ask a `Just` side for its value once.
  func test_concurrentRequests_deliverTheJustsValueOnce() {
    for _ in 0..<200 {
      let subject = PassthroughSubject<Int, Never>()
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
      subject.zip(Just(5)).map { $0 + $1 }.subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 4) { _ in subscriber.request(.max(1)) }
      subject.send(1)
      subject.send(2)
      XCTAssertEqual(subscriber.values, [6])
      XCTAssertEqual(subscriber.completion, .finished)
    }
  }
}
