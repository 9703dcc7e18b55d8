import ConfluenceTesting
import XCTest

@testable import Confluence

/// With unlimited demand a `Publishers.Sequence` offers its values as one run
/// (`Subscriber._receiveRun`): `map`, `filter`, `scan`, `compactMap`, `map(_:)` with a key
/// path, `setFailureType` and `mapError` pass it on, and a sink at the end pulls the values
/// with two plain checks per value instead of its delivery gate per value. A run must be
/// invisible: every closure is called in the same order, as often, and stops at the same
/// point as when the same chain delivers value by value — which it does when the sink sits
/// behind `AnySubscriber`, which takes no run.
final class SequenceRunTests: XCTestCase {
  /// Where the code that interferes runs.
  enum Place: String {
    /// Inside the sink's `receiveValue`.
    case sink
    /// Inside the first operator's closure.
    case `operator`
    /// Inside the sequence's own (lazy) iteration, while it makes the value.
    case source
  }

  /// What interferes with delivery, and at which value.
  enum Interference: CustomStringConvertible {
    case none
    /// A cancel of the sink.
    case cancel(Place, at: Int)
    /// A completion sent into the sink from the first operator's closure.
    case completionFromOperator(at: Int)

    var description: String {
      switch self {
      case .none: "none"
      case .cancel(let place, let at): "cancel in the \(place.rawValue) at \(at)"
      case .completionFromOperator(let at): "completion from the operator at \(at)"
      }
    }

    static let all: [Interference] =
      [.none]
      + [0, 1, 4, 7].flatMap {
        [.cancel(.sink, at: $0), .cancel(.operator, at: $0), .cancel(.source, at: $0), .completionFromOperator(at: $0)]
      }
  }

  /// The operator chains between the sequence and the sink.
  enum Chain: CaseIterable {
    case direct, map, filterKeepingEven, filterKeepingAll, scan, compactMap, keyPath, setFailureTypeAndMapError
    case mapFilterScanMap
    // The family whose subscriber is a subscription of its own (it can end the stream): no
    // run today, compared so that one added later is held to the same rule.
    case removeDuplicates, dropWhile, prefixWhile, output, tryMapFailing, tryFilter
  }

  struct Boxed { let value: Int }

  enum NoFailure: Error {
    static func absurd(_ failure: NoFailure) -> Never {}
  }

  /// Everything that happens, in order, when `chain` runs over a lazy sequence of 0..<8 into
  /// a sink, directly (`throughRun`) or behind `AnySubscriber`; and how many of the sink's
  /// closures' captures are alive at the end.
  func events(_ chain: Chain, _ interference: Interference, throughRun: Bool) -> (log: [String], alive: Int) {
    var log: [String] = []
    let tracker = LifetimeTracker()
    var sink: Subscribers.Sink<Int, any Error>?
    func interfere(_ value: Int, at place: Place) {
      switch interference {
      case .cancel(place, value):
        log.append("cancel")
        sink?.cancel()
      case .completionFromOperator(value) where place == .operator:
        log.append("complete")
        sink?.receive(completion: .finished)
      default:
        break
      }
    }
    sink = Subscribers.Sink(
      receiveCompletion: { [probe = tracker.make()] completion in
        switch completion {
        case .finished: log.append("finished \(probe.id - probe.id)")
        case .failure(let error): log.append("failed \(error)")
        }
      },
      receiveValue: { [probe = tracker.make()] value in
        log.append("got \(value + probe.id - probe.id)")
        interfere(value, at: .sink)
      })
    let source = (0..<8).lazy.map { value -> Int in
      log.append("make \(value)")
      interfere(value, at: .source)
      return value
    }.publisher
    func subscribe<P: Publisher<Int, any Error>>(_ publisher: P) {
      if throughRun { publisher.subscribe(sink!) } else { publisher.subscribe(AnySubscriber(sink!)) }
    }
    func subscribe<P: Publisher<Int, Never>>(_ publisher: P) {
      subscribe(publisher.setFailureType(to: (any Error).self))  // which passes a run on
    }
    func logged(_ name: String, _ value: Int) {
      log.append("\(name) \(value)")
      interfere(value, at: .operator)
    }
    switch chain {
    case .direct:
      subscribe(source)
    case .removeDuplicates:
      subscribe(
        Publishers.RemoveDuplicates(upstream: Publishers.Map(upstream: source) { $0 / 3 }) { previous, value in
          logged("same as \(previous)?", value)
          return previous == value
        })
    case .dropWhile:
      subscribe(
        Publishers.DropWhile(upstream: source) { value in
          logged("drop?", value)
          return value < 3
        })
    case .prefixWhile:
      subscribe(
        Publishers.PrefixWhile(upstream: source) { value in
          logged("keep?", value)
          return value < 5
        })
    case .output:
      let mapped = Publishers.Map(upstream: source) { value -> Int in
        logged("map", value)
        return value
      }
      subscribe(Publishers.Output(upstream: mapped, range: 2..<5))
    case .tryMapFailing:
      subscribe(
        Publishers.TryMap(upstream: source) { value -> Int in
          logged("tryMap", value)
          if value == 6 { throw URLError(.badURL) }
          return value
        })
    case .tryFilter:
      subscribe(
        Publishers.TryFilter(upstream: source) { value in
          logged("tryFilter", value)
          return value % 3 != 2
        })
    case .map:
      subscribe(
        Publishers.Map(upstream: source) { value -> Int in
          logged("map", value)
          return value * 10
        })
    case .filterKeepingEven, .filterKeepingAll:
      subscribe(
        Publishers.Filter(upstream: source) { value in
          logged("filter", value)
          return chain == .filterKeepingAll || value.isMultiple(of: 2)
        })
    case .scan:
      subscribe(
        Publishers.Scan(upstream: source, initialResult: 100) { sum, value in
          logged("scan", value)
          return sum + value
        })
    case .compactMap:
      subscribe(
        Publishers.CompactMap(upstream: source) { value -> Int? in
          logged("compactMap", value)
          return value % 3 == 1 ? nil : value
        })
    case .keyPath:
      subscribe(
        Publishers.Map(upstream: source) { value -> Boxed in
          logged("box", value)
          return Boxed(value: value)
        }.map(\.value))
    case .setFailureTypeAndMapError:
      subscribe(
        Publishers.Map(upstream: source) { value -> Int in
          logged("map", value)
          return value
        }
        .setFailureType(to: NoFailure.self)
        .mapError(NoFailure.absurd))
    case .mapFilterScanMap:
      subscribe(
        Publishers.Map(upstream: source) { value -> Int in
          logged("map", value)
          return value + 1
        }
        .filter { value in
          log.append("filter \(value)")
          return value != 3
        }
        .scan(0) { sum, value in
          log.append("scan \(value)")
          return sum + value
        }
        .map { value -> Int in
          log.append("map again \(value)")
          return -value
        })
    }
    sink = nil
    return (log, tracker.liveCount)
  }

  func test_aRunThroughOperators_callsEveryClosureInTheOrder_andStopsWhere_valueByValueDeliveryDoes() {
    for chain in Chain.allCases {
      for interference in Interference.all {
        let valueByValue = events(chain, interference, throughRun: false)
        let run = events(chain, interference, throughRun: true)
        XCTAssertEqual(run.log, valueByValue.log, "\(chain), \(interference)")
        XCTAssertEqual(run.alive, 0, "\(chain), \(interference): the sink kept its closures")
        XCTAssertEqual(valueByValue.alive, 0, "\(chain), \(interference): the sink kept its closures")
      }
    }
  }

  /// The comparison above can only fail if the logs say something: pin a few of them.
  func test_theLogsCompared_sayWhatHappened() {
    XCTAssertEqual(
      events(.prefixWhile, .none, throughRun: true).log,
      ["make 0", "make 1", "keep? 0", "got 0", "make 2", "keep? 1", "got 1", "make 3", "keep? 2", "got 2"]
        + ["make 4", "keep? 3", "got 3", "make 5", "keep? 4", "got 4", "make 6", "keep? 5", "finished 0"])
    let failing = events(.tryMapFailing, .none, throughRun: true).log
    XCTAssertEqual(failing.suffix(4).dropLast(), ["got 5", "make 7", "tryMap 6"])
    XCTAssert(failing.last?.hasPrefix("failed") == true, "\(failing)")
    XCTAssertEqual(
      events(.map, .none, throughRun: true).log,
      ["make 0", "make 1", "map 0", "got 0", "make 2", "map 1", "got 10", "make 3", "map 2", "got 20"]
        + ["make 4", "map 3", "got 30", "make 5", "map 4", "got 40", "make 6", "map 5", "got 50"]
        + ["make 7", "map 6", "got 60", "map 7", "got 70", "finished 0"])
    XCTAssertEqual(
      events(.filterKeepingEven, .cancel(.sink, at: 4), throughRun: true).log,
      ["make 0", "make 1", "filter 0", "got 0", "make 2", "filter 1", "make 3", "filter 2", "got 2"]
        + ["make 4", "filter 3", "make 5", "filter 4", "got 4", "cancel"])
    XCTAssertEqual(
      events(.map, .cancel(.source, at: 4), throughRun: true).log,
      ["make 0", "make 1", "map 0", "got 0", "make 2", "map 1", "got 10", "make 3", "map 2", "got 20"]
        + ["make 4", "cancel", "map 3"])
    XCTAssertEqual(
      events(.scan, .completionFromOperator(at: 1), throughRun: true).log,
      ["make 0", "make 1", "scan 0", "got 100", "make 2", "scan 1", "complete", "finished 0"]
        + ["make 3", "scan 2", "make 4", "scan 3", "make 5", "scan 4", "make 6", "scan 5", "make 7"]
        + ["scan 6", "scan 7"])
  }

  /// White-box: the run really is taken through each operator (or the comparisons above
  /// would compare value-by-value delivery with itself). Inside a run the sink's gate is
  /// entered while the sequence makes its next value; value by value it is not.
  func test_eachOperatorThatPassesARunOn_reallyTakesIt() {
    func depths<P: Publisher<Int, Never>>(_ makeChain: (Publishers.Sequence<LazyMapSequence<[Int], Int>, Never>) -> P)
      -> [Int]
    {
      var depths: [Int] = []
      var sink: Subscribers.Sink<Int, Never>?
      let source = [0, 1, 2, 3].lazy.map { value -> Int in
        if let sink {
          #if CONFLUENCE_LOCKED_FAST_PATHS
            depths.append(sink.gate.state.withLock { $0.depth })
          #else
            depths.append(sink.gate.depth.load(ordering: .relaxed))
          #endif
        }
        return value
      }
      sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { _ in })
      makeChain(source.publisher).subscribe(sink!)
      return depths
    }
    let run = [0, 1, 1, 1]  // the first value is made at the subscription, before the run
    let valueByValue = [0, 0, 0, 0]
    XCTAssertEqual(depths { $0 }, run, "directly")
    // The operators are spelled out: on a `Publishers.Sequence`, `map`, `filter`, `scan` and
    // `compactMap` are the eager overloads, which make a new sequence instead.
    XCTAssertEqual(depths { Publishers.Map(upstream: $0) { $0 + 1 } }, run, "map")
    XCTAssertEqual(depths { Publishers.Filter(upstream: $0) { _ in false } }, run, "filter, nothing kept")
    XCTAssertEqual(depths { Publishers.Scan(upstream: $0, initialResult: 0, nextPartialResult: +) }, run, "scan")
    XCTAssertEqual(depths { Publishers.CompactMap(upstream: $0) { $0 } }, run, "compactMap")
    XCTAssertEqual(depths { Publishers.Map(upstream: $0) { Boxed(value: $0) }.map(\.value) }, run, "key path")
    XCTAssertEqual(
      depths { $0.setFailureType(to: NoFailure.self).mapError(NoFailure.absurd) }, run,
      "setFailureType, mapError")
    XCTAssertEqual(
      depths { $0.setFailureType(to: URLError.self).assertNoFailure() }, valueByValue, "assertNoFailure takes none")
    XCTAssertEqual(depths { $0.handleEvents() }, valueByValue, "handleEvents takes no run")
    // The family whose subscriber is a subscription of its own takes no run: pulled through
    // its state, the loop kept fewer values in registers than value-by-value delivery does
    // (`removeDuplicates` 78 -> 82 instructions per element).
    XCTAssertEqual(
      depths { Publishers.RemoveDuplicates(upstream: $0, predicate: ==) }, valueByValue, "removeDuplicates")
    XCTAssertEqual(
      depths { Publishers.TryMap(upstream: $0) { $0 }.replaceError(with: 0) }, valueByValue,
      "replaceError takes no run")
    XCTAssertEqual(
      depths { Publishers.Map(upstream: $0) { $0 }.filter { $0 >= 0 }.scan(0, +).map { $0 } }, run, "a chain")
    XCTAssertEqual(depths { Publishers.Map(upstream: $0) { $0 }.eraseToAnyPublisher() }, run, "behind AnyPublisher")
  }
}
