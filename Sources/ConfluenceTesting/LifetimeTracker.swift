import Confluence

/// Counts live instances of ``LifetimeTracker/Tracked``, to prove that a pipeline frees
/// what it captured.
///
/// Capture a tracked object in the closures of a pipeline, drop or cancel the pipeline,
/// and assert that no tracked object is alive:
///
/// ```swift
/// let tracker = LifetimeTracker()
/// var token: AnyCancellable? = subject.map { [probe = tracker.make()] in probe.id + $0 }.sink { _ in }
/// token?.cancel()
/// token = nil
/// XCTAssertEqual(tracker.liveCount, 0)
/// ```
public final class LifetimeTracker: @unchecked Sendable {
  // @unchecked Sendable: `live` is only touched under `lock`.
  private let lock = Lock()
  private var live = 0
  private var made = 0

  /// Creates a tracker with no objects made yet.
  public init() {}

  /// An object whose life the tracker counts.
  public final class Tracked: @unchecked Sendable {
    // @unchecked Sendable: immutable apart from the tracker's own locked counter.
    public let id: Int
    private let tracker: LifetimeTracker

    fileprivate init(id: Int, tracker: LifetimeTracker) {
      self.id = id
      self.tracker = tracker
    }

    deinit {
      tracker.lock.withLock { tracker.live -= 1 }
    }
  }

  /// Makes a new tracked object.
  public func make() -> Tracked {
    let id = lock.withLock { () -> Int in
      live += 1
      made += 1
      return made
    }
    return Tracked(id: id, tracker: self)
  }

  /// How many tracked objects are alive now.
  public var liveCount: Int { lock.withLock { live } }

  /// How many tracked objects were ever made.
  public var madeCount: Int { lock.withLock { made } }
}

/// Asserts that `object` is freed once the caller's last strong reference, passed in and
/// cleared by this function, is gone.
///
/// A failure is reported at the caller's line to the framework running the test (Swift
/// Testing or XCTest).
///
/// ```swift
/// var subscription: AnyObject? = makeSubscription()
/// assertReleased(&subscription)
/// ```
public func assertReleased<T: AnyObject>(
  _ object: inout T?, _ message: @autoclosure () -> String = "", fileID: StaticString = #fileID,
  file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
  weak let observer = object
  object = nil
  if observer != nil {
    reportTestFailure(
      "expected the object to be freed. \(message())",
      at: CheckLocation(fileID: fileID, filePath: file, line: line, column: column))
  }
}

/// An error value for tests: compares equal by tag, prints as its tag.
public struct TestError: Error, Hashable, CustomStringConvertible, Sendable {
  public let tag: String

  /// Creates an error with the given tag.
  public init(_ tag: String = "oops") {
    self.tag = tag
  }

  public var description: String { tag }
}
