import Confluence
import ConfluenceTesting
import Foundation

/// The value every generated pipeline carries: a number, compared by value, and a token
/// whose life the run's ``LifetimeTracker`` counts, so that a value an operator keeps
/// after completion or cancel shows up as a leak.
struct Item: Comparable, CustomStringConvertible {
  let n: Int
  let token: LifetimeTracker.Tracked

  static func == (lhs: Item, rhs: Item) -> Bool { lhs.n == rhs.n }
  static func < (lhs: Item, rhs: Item) -> Bool { lhs.n < rhs.n }
  var description: String { "\(n)" }
}

/// A text stream that throws away what `print` writes.
struct NullStream: TextOutputStream {
  mutating func write(_ string: String) {}
}

/// What building one pipeline needs and what running it drives: the tracker that counts
/// live values and closures, the virtual-time scheduler of the time operators, and the
/// hot sources (subjects) with the events still to be sent to them.
// Built and driven from the test's thread; in threaded runs, each subject driver is handed
// to one sender thread and the tracker and queue are thread-safe.
final class PipelineContext: @unchecked Sendable {
  let tracker = LifetimeTracker()
  let scheduler = TestScheduler(initialClock: 0)
  /// The serial queue of `receive(on: DispatchQueue)` stages (threaded runs).
  let queue = DispatchQueue(label: "generated-pipeline")
  private(set) var subjects: [SubjectDriver] = []
  /// Connections the run holds as a caller would (`subscribe(_:)` to a subject).
  private var kept: [AnyCancellable] = []

  func item(_ n: Int) -> Item {
    Item(n: n, token: tracker.make())
  }

  /// A token for a closure to capture, so that a closure kept alive is a counted leak.
  func token() -> LifetimeTracker.Tracked {
    tracker.make()
  }

  func register(_ driver: SubjectDriver) {
    subjects.append(driver)
  }

  /// Sends up to `count` of the next scripted events of subject `index` (modulo the count).
  func send(subject index: Int, count: Int) {
    guard !subjects.isEmpty else { return }
    subjects[index % subjects.count].send(count)
  }

  /// Sends every remaining scripted event, completions included.
  func finishSubjects() {
    for subject in subjects {
      subject.send(Int.max)
    }
  }

  /// Holds `connection` until ``releaseSubjects()``.
  func keep(_ connection: AnyCancellable) {
    kept.append(connection)
  }

  /// Drops the subjects (and the connections held), so that nothing but the pipeline under
  /// test holds them.
  func releaseSubjects() {
    subjects.removeAll()
    kept.removeAll()
  }

  /// The subjects' drivers, for threaded runs that drive each from its own thread.
  var drivers: [SubjectDriver] { subjects }
}

/// One hot source and its script: the values still to send and how it ends.
/// Each driver is driven by one thread at a time (its script is not shared).
final class SubjectDriver: @unchecked Sendable {
  private var pending: [Int]
  private let fails: Bool
  private var isComplete = false
  private let sendValue: (Int) -> Void
  private let sendCompletion: (Subscribers.Completion<TestError>) -> Void

  init(
    values: [Int], fails: Bool, sendValue: @escaping (Int) -> Void,
    sendCompletion: @escaping (Subscribers.Completion<TestError>) -> Void
  ) {
    self.pending = values
    self.fails = fails
    self.sendValue = sendValue
    self.sendCompletion = sendCompletion
  }

  func send(_ count: Int) {
    var sent = 0
    while sent < count, !pending.isEmpty {
      sendValue(pending.removeFirst())
      sent += 1
    }
    if sent < count, pending.isEmpty, !isComplete {
      isComplete = true
      sendCompletion(fails ? .failure(TestError("subject")) : .finished)
    }
  }
}
