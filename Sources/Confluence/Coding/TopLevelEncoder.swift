/// A type that defines methods for encoding.
///
/// `encode(encoder:)` accepts any `TopLevelEncoder`. ConfluenceFoundation makes
/// `JSONEncoder` and `PropertyListEncoder` conform; any other encoder can conform by
/// naming its `Output`:
///
/// ```swift
/// struct DescriptionEncoder: TopLevelEncoder {
///   func encode<T: Encodable>(_ value: T) throws -> String { String(describing: value) }
/// }
/// ```
public protocol TopLevelEncoder {
  /// The type this encoder produces.
  associatedtype Output

  /// Encodes an instance of the indicated type.
  ///
  /// - Parameter value: The instance to encode.
  /// - Returns: The encoded representation of `value`.
  func encode<T: Encodable>(_ value: T) throws -> Output
}
