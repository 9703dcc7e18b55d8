import Confluence

/// What a publisher sent until it completed: its values, in order, and its completion.
///
/// ``Confluence/Publisher/awaitCompletion(timeout:fileID:file:line:column:)`` returns one.
///
/// ```swift
/// let recording = try await [1, 2].publisher.awaitCompletion()
/// #expect(recording.values == [1, 2])
/// #expect(recording.completion == .finished)
/// ```
public struct PublisherRecording<Output, Failure: Error> {
  /// The values, in the order they arrived.
  public var values: [Output]
  /// The completion that ended the recording.
  public var completion: Subscribers.Completion<Failure>

  /// Creates a recording.
  public init(values: [Output], completion: Subscribers.Completion<Failure>) {
    self.values = values
    self.completion = completion
  }
}

extension PublisherRecording: Sendable where Output: Sendable {}
extension PublisherRecording: Equatable where Output: Equatable, Failure: Equatable {}
