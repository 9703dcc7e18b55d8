import Foundation

// `Data.withUnsafeBytes` and `Array.withUnsafeBytes` rethrow untyped errors; these carry a
// closure's `HTTPStreamError` through them with its type.

extension Data {
  /// Calls `body` with the bytes, keeping its thrown error's type.
  func withBytes<Result>(
    _ body: (UnsafeRawBufferPointer) throws(HTTPStreamError) -> Result
  ) throws(HTTPStreamError) -> Result {
    let outcome = withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      Swift.Result { () throws(HTTPStreamError) -> Result in try body(raw) }
    }
    return try outcome.get()
  }

  /// The byte at `offset` from the start.
  func byte(at offset: Int) -> UInt8 {
    withUnsafeBytes { (raw: UnsafeRawBufferPointer) in raw[offset] }
  }
}

extension Array where Element == UInt8 {
  /// Calls `body` with the bytes, keeping its thrown error's type.
  func withBytes<Result>(
    _ body: (UnsafeRawBufferPointer) throws(HTTPStreamError) -> Result
  ) throws(HTTPStreamError) -> Result {
    let outcome = withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      Swift.Result { () throws(HTTPStreamError) -> Result in try body(raw) }
    }
    return try outcome.get()
  }
}
