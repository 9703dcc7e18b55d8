import Confluence
import Foundation

/// `JSONEncoder` is a `TopLevelEncoder`, so `encode(encoder:)` takes it
/// directly, as on Apple's platforms.
///
/// ```swift
/// struct Point: Codable { var x, y: Int }
/// let cancellable = Just(Point(x: 1, y: 2))
///   .encode(encoder: JSONEncoder())
///   .sink(receiveCompletion: { _ in }, receiveValue: { print(String(decoding: $0, as: UTF8.self)) })
/// // prints {"x":1,"y":2}
/// ```
extension JSONEncoder: TopLevelEncoder {}

/// `JSONDecoder` is a `TopLevelDecoder`, so `decode(type:decoder:)` takes it
/// directly, as on Apple's platforms. Malformed input fails the stream with the decoder's
/// `DecodingError`.
///
/// ```swift
/// let cancellable = Just(Data(#"{"x":1,"y":2}"#.utf8))
///   .decode(type: Point.self, decoder: JSONDecoder())
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// ```
extension JSONDecoder: TopLevelDecoder {}
