import Foundation

/// Turns the bytes that follow a response's head into its body: by `Content-Length`, by
/// `Transfer-Encoding: chunked`, or up to the connection's close. A pure state machine: it
/// is handed bytes and appends the body bytes they contain to `body`.
struct HTTPBodyDecoder: Sendable {
  enum Framing: Sendable, Equatable {
    /// No body at all (HEAD, 1xx, 204, 304).
    case none
    /// Exactly this many bytes.
    case length(Int)
    /// `Transfer-Encoding: chunked`.
    case chunked
    /// Whatever arrives until the server closes the connection.
    case untilClose
  }

  private enum ChunkState: Sendable, Equatable {
    /// Reading a chunk's size line (hex digits, then perhaps `;extensions`, then CRLF).
    case size(value: Int, digits: Int, inExtension: Bool)
    /// Reading a chunk's data; `remaining` bytes to go.
    case data(remaining: Int)
    /// Expecting the CRLF after a chunk's data (`seenCR`: the CR has come).
    case dataEnd(seenCR: Bool)
    /// After the last (empty) chunk: trailer lines until an empty one; `lineLength` bytes
    /// of the current line so far.
    case trailer(lineLength: Int)
    case done
  }

  let framing: Framing
  private var remaining = 0
  private var chunkState = ChunkState.size(value: 0, digits: 0, inExtension: false)

  init(framing: Framing) {
    self.framing = framing
    if case .length(let length) = framing { remaining = length }
    if framing == .none { chunkState = .done }
  }

  /// Whether the whole body has been read (never for `.untilClose`: the close ends it).
  var isComplete: Bool {
    switch framing {
    case .none: true
    case .length: remaining == 0
    case .chunked: chunkState == .done
    case .untilClose: false
    }
  }

  /// Decodes `bytes`, appending the body bytes among them to `body`. Bytes after the body's
  /// end are ignored (the connection is not reused).
  mutating func decode(_ bytes: UnsafeRawBufferPointer, into body: inout Data) throws(HTTPStreamError) {
    switch framing {
    case .none:
      return
    case .untilClose:
      body.append(contentsOf: bytes)
    case .length:
      let take = min(remaining, bytes.count)
      body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<take]))
      remaining -= take
    case .chunked:
      try decodeChunked(bytes, into: &body)
    }
  }

  /// The connection closed: whether that ends the body properly.
  var endsAtClose: Bool { framing == .untilClose || isComplete }

  private mutating func decodeChunked(_ bytes: UnsafeRawBufferPointer, into body: inout Data) throws(HTTPStreamError) {
    var index = 0
    let count = bytes.count
    while index < count {
      switch chunkState {
      case .size(let value, let digits, let inExtension):
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
          guard digits > 0 else { throw .malformedResponse("a chunk size line without a size") }
          chunkState = value == 0 ? .trailer(lineLength: 0) : .data(remaining: value)
        } else if byte == 0x0D || inExtension {
          continue
        } else if byte == UInt8(ascii: ";") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
          chunkState = .size(value: value, digits: digits, inExtension: true)
        } else if let digit = Self.hexValue(byte) {
          guard digits < 15 else { throw .malformedResponse("a chunk size beyond 15 hex digits") }
          chunkState = .size(value: value << 4 | digit, digits: digits + 1, inExtension: false)
        } else {
          throw .malformedResponse("a chunk size with the byte \(byte)")
        }
      case .data(let remaining):
        let take = min(remaining, count - index)
        body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
        index += take
        chunkState = remaining == take ? .dataEnd(seenCR: false) : .data(remaining: remaining - take)
      case .dataEnd(let seenCR):
        let byte = bytes[index]
        index += 1
        if byte == 0x0D, !seenCR {
          chunkState = .dataEnd(seenCR: true)
        } else if byte == 0x0A {
          chunkState = .size(value: 0, digits: 0, inExtension: false)
        } else {
          throw .malformedResponse("a chunk's data not followed by CRLF")
        }
      case .trailer(let lineLength):
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
          chunkState = lineLength == 0 ? .done : .trailer(lineLength: 0)
        } else if byte != 0x0D {
          chunkState = .trailer(lineLength: lineLength + 1)
        }
      case .done:
        return
      }
    }
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: Int(byte - 0x30)
    case 0x41...0x46: Int(byte - 0x41 + 10)
    case 0x61...0x66: Int(byte - 0x61 + 10)
    default: nil
    }
  }
}
