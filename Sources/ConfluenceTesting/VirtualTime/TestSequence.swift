import Confluence

/// A list of ``Signal``s, each stamped with a ``VirtualTime``.
///
/// It is what a ``TestablePublisher`` is made from and what a ``TestableSubscriber``
/// records. Write one as an array literal of `(time, signal)` pairs; two sequences are
/// equal when they hold the same signals at the same times, in the same order.
///
/// ```swift
/// XCTAssertEqual(results.recordedOutput, [
///   (200, .subscription),
///   (300, .input("A")),
/// ])
/// ```
public struct TestSequence<Input, Failure: Error>: RandomAccessCollection, ExpressibleByArrayLiteral {
  /// One stamped signal.
  public typealias Element = (time: VirtualTime, signal: Signal<Input, Failure>)

  /// The stamped signals, in order.
  public var elements: [Element]

  /// Creates a sequence from stamped signals.
  public init(_ elements: [Element] = []) {
    self.elements = elements
  }

  public init(arrayLiteral elements: (VirtualTime, Signal<Input, Failure>)...) {
    self.init(elements.map { (time: $0.0, signal: $0.1) })
  }

  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }
  public subscript(position: Int) -> Element { elements[position] }

  /// Appends a stamped signal.
  public mutating func append(_ time: VirtualTime, _ signal: Signal<Input, Failure>) {
    elements.append((time: time, signal: signal))
  }

  /// The values, without their times.
  public var inputs: [Input] {
    elements.compactMap { if case .input(let value) = $0.signal { return value } else { return nil } }
  }

  /// The same signals with every time moved by `offset`.
  public func shifted(by offset: VirtualTimeInterval) -> TestSequence {
    TestSequence(elements.map { (time: $0.time.advanced(by: offset), signal: $0.signal) })
  }
}

extension TestSequence: Equatable where Input: Equatable, Failure: Equatable {
  public static func == (lhs: TestSequence, rhs: TestSequence) -> Bool {
    lhs.elements.count == rhs.elements.count
      && zip(lhs.elements, rhs.elements).allSatisfy { $0.time == $1.time && $0.signal == $1.signal }
  }
}

extension TestSequence: Sendable where Input: Sendable, Failure: Sendable {}

extension TestSequence: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String {
    "[" + elements.map { "(\($0.time), \($0.signal))" }.joined(separator: ", ") + "]"
  }

  public var debugDescription: String { description }
}
