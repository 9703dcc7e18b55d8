/// Why awaiting a publisher's values or completion threw, other than the publisher's own
/// failure.
///
/// ```swift
/// do {
///   _ = try await subject.firstValues(2, timeout: .milliseconds(50))
/// } catch let error as PublisherWaitError {
///   print(error)  // "timed out after 0.05 seconds waiting for 2 values; received [1]"
/// }
/// ```
public struct PublisherWaitError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  public enum Reason: Sendable, Equatable {
    /// The time limit passed first.
    case timedOut(Duration)
    /// The publisher finished before sending the values awaited.
    case finishedEarly
  }

  /// What went wrong.
  public let reason: Reason
  /// What was awaited, e.g. "2 values" or "the completion".
  public let awaited: String
  /// The values received before it went wrong, as text.
  public let received: [String]

  /// Creates the error.
  public init(reason: Reason, awaited: String, received: [String]) {
    self.reason = reason
    self.awaited = awaited
    self.received = received
  }

  public var description: String {
    let values = "[" + received.joined(separator: ", ") + "]"
    switch reason {
    case .timedOut(let limit):
      return "timed out after \(limit) waiting for \(awaited); received \(values)"
    case .finishedEarly:
      return "the publisher finished before sending \(awaited); received \(values)"
    }
  }
}
