/// Which values an ``ObservationPublisher`` publishes besides each new value — the two
/// options of Apple's key-value observing publisher that change what it emits (`.old` and
/// `.new` change nothing there, so they are not offered).
///
/// ```swift
/// object.observationPublisher(for: \.count, options: [])          // changes only
/// object.observationPublisher(for: \.count, options: [.prior])    // old, new, old, new, …
/// ```
public struct ObservationOptions: OptionSet, Sendable {
  public let rawValue: Int

  /// Creates options from their raw value.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Publish the value at subscription time first.
  public static let initial = ObservationOptions(rawValue: 1 << 0)

  /// Publish each change twice: the value before it, then the value after it.
  public static let prior = ObservationOptions(rawValue: 1 << 1)
}
