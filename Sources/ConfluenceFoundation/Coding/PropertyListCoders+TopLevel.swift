import Confluence
import Foundation

/// `PropertyListEncoder` is a `TopLevelEncoder`, so `encode(encoder:)` takes
/// it directly, as on Apple's platforms.
///
/// ```swift
/// let cancellable = Just(["a": 1])
///   .encode(encoder: PropertyListEncoder())
///   .sink(receiveCompletion: { _ in }, receiveValue: { print($0.count, "bytes") })
/// ```
extension PropertyListEncoder: TopLevelEncoder {}

/// `PropertyListDecoder` is a `TopLevelDecoder`, so `decode(type:decoder:)`
/// takes it directly, as on Apple's platforms. Malformed input fails the stream with the
/// decoder's `DecodingError`.
///
/// ```swift
/// let cancellable = Just(plistData)
///   .decode(type: [String: Int].self, decoder: PropertyListDecoder())
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// ```
extension PropertyListDecoder: TopLevelDecoder {}
