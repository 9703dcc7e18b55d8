/// A type that defines methods for decoding.
///
/// `decode(type:decoder:)` accepts any `TopLevelDecoder`. ConfluenceFoundation makes
/// `JSONDecoder` and `PropertyListDecoder` conform; any other decoder can conform by
/// naming its `Input`:
///
/// ```swift
/// struct IntStringDecoder: TopLevelDecoder {
///   func decode<T: Decodable>(_ type: T.Type, from input: String) throws -> T { … }
/// }
/// ```
public protocol TopLevelDecoder {
  /// The type this decoder accepts.
  associatedtype Input

  /// Decodes an instance of the indicated type.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - from: The encoded representation to decode from.
  /// - Returns: The decoded instance.
  func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}
