import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a stream of byte chunks into lines, one line at a time, holding at most the
/// current chunk and the start of a line begun in an earlier chunk.
///
/// Bytes, not characters: a line is cut at its terminator's bytes, so a multi-byte UTF-8
/// character split across two chunks reaches the caller whole (the line's bytes are
/// decoded only once the line is complete). Two sets of terminators:
/// - `.lineFeed` (`HTTPLinesPublisher`): LF, and CRLF (the CR is dropped); a lone CR is
///   an ordinary byte.
/// - `.anyNewline` (event streams, as the `EventSource` standard reads them): CRLF, LF or
///   CR; a CR that ends one chunk and a LF that starts the next are one terminator.
///
/// `maximumLength` bounds a line's bytes (its terminator not counted): a line that grows
/// beyond it throws `HTTPStreamError.lineTooLong` as soon as that is known, so the carried
/// bytes never exceed the limit by more than one byte.
struct LineScanner: Sendable {
  enum Terminators: Sendable {
    case lineFeed
    case anyNewline
  }

  let terminators: Terminators
  let maximumLength: Int

  /// The chunk being read, copied out of its `Data` once when it is handed in; the bytes
  /// before `offset` have been consumed.
  ///
  /// An array, not the `Data`: reading a `Data`'s bytes for each line made a copy of it
  /// (a retain and a release of its storage) and passed through Foundation's storage class,
  /// whose properties are checked for exclusive access at run time (a look-up in a
  /// thread-local table): together about a fifth of a line's cost on the client's side.
  /// The array keeps its capacity from chunk to chunk, so the copy costs no allocation.
  private var chunk: [UInt8] = []
  private var offset = 0
  /// The start of a line whose terminator has not arrived yet.
  private var carry: [UInt8] = []
  /// `.anyNewline`: the last line ended with a CR at the very end of a chunk, so a LF at the
  /// start of the next chunk completes that terminator rather than ending an empty line.
  private var skipsLineFeed = false

  init(terminators: Terminators, maximumLength: Int) {
    precondition(maximumLength > 0, "the maximum line length must be positive (it was \(maximumLength))")
    self.terminators = terminators
    self.maximumLength = maximumLength
  }

  /// Whether every byte handed in has been scanned (into lines or the carried start of one).
  var isDrained: Bool { offset == chunk.count }

  /// Whether a line has begun that its terminator has not ended yet.
  var hasUnterminatedLine: Bool { !carry.isEmpty || offset < chunk.count }

  /// Hands in the next chunk. The previous one must have been drained.
  mutating func append(_ data: Data) {
    precondition(isDrained, "LineScanner.append(_:) before the previous chunk was drained")
    // Copied from index 0 on (a slice of a larger Data keeps its indices), into the
    // capacity the last chunk left.
    chunk.removeAll(keepingCapacity: true)
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in chunk.append(contentsOf: raw) }
    offset = 0
  }

  /// Forgets everything: the chunk, the carried start of a line and a pending CR.
  mutating func reset() {
    chunk = []
    offset = 0
    carry = []
    skipsLineFeed = false
  }

  /// Calls `body` with the bytes of the next complete line (without its terminator) and
  /// returns its result, or returns `nil` once the chunk holds no further complete line (its
  /// remaining bytes are carried to the next chunk).
  ///
  /// - Throws: `HTTPStreamError.lineTooLong` for a line beyond the limit, or what `body` throws.
  mutating func nextLine<Result>(
    _ body: (UnsafeRawBufferPointer) throws(HTTPStreamError) -> Result
  ) throws(HTTPStreamError) -> Result? {
    let count = chunk.count
    if offset == count { return nil }
    var lineStart = offset
    if skipsLineFeed {
      skipsLineFeed = false
      if chunk[lineStart] == 0x0A { lineStart += 1 }
    }
    guard let (contentEnd, next) = findTerminator(from: lineStart) else {
      carry.append(contentsOf: chunk[lineStart..<count])
      offset = count
      try checkCarriedLength()
      return nil
    }
    offset = next
    if terminators == .anyNewline, next == count, chunk[contentEnd] == 0x0D {
      // A CR as the chunk's last byte: the next chunk may start with its LF.
      skipsLineFeed = true
    }
    guard carry.isEmpty else {
      carry.append(contentsOf: chunk[lineStart..<contentEnd])
      return try takeCarry(body)
    }
    var end = contentEnd
    if terminators == .lineFeed, end > lineStart, chunk[end - 1] == 0x0D { end -= 1 }
    guard end - lineStart <= maximumLength else { throw .lineTooLong(maximumLength: maximumLength) }
    return try chunk.withBytes { (raw) throws(HTTPStreamError) in
      try body(UnsafeRawBufferPointer(rebasing: raw[lineStart..<end]))
    }
  }

  /// The end of the line that starts at `start`: where its content ends and where the next
  /// line starts, or `nil` if the terminator is not in `raw`.
  private func findTerminator(from start: Int) -> (Int, Int)? {
    chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in findTerminator(in: raw, from: start) }
  }

  /// ``findTerminator(from:)`` in `raw`.
  private func findTerminator(in raw: UnsafeRawBufferPointer, from start: Int) -> (Int, Int)? {
    let count = raw.count
    switch terminators {
    case .lineFeed:
      guard start < count, let base = raw.baseAddress, let hit = memchr(base + start, 0x0A, count - start) else {
        return nil
      }
      let index = base.distance(to: UnsafeRawPointer(hit))
      return (index, index + 1)
    case .anyNewline:
      var index = start
      while index < count {
        let byte = raw[index]
        if byte == 0x0A { return (index, index + 1) }
        if byte == 0x0D {
          if index + 1 < count, raw[index + 1] == 0x0A { return (index, index + 2) }
          return (index, index + 1)
        }
        index += 1
      }
      return nil
    }
  }

  /// At the end of the stream, after `nextLine` returned `nil`: calls `body` with the final
  /// line if the stream did not end with a terminator (a trailing CR dropped), and returns
  /// its result; `nil` if there is none.
  mutating func finalLine<Result>(
    _ body: (UnsafeRawBufferPointer) throws(HTTPStreamError) -> Result
  ) throws(HTTPStreamError) -> Result? {
    precondition(isDrained, "LineScanner.finalLine(_:) before the chunk was drained")
    guard !carry.isEmpty else { return nil }
    return try takeCarry(body)
  }

  /// Hands the carried line (its terminator's CR dropped) to `body` and empties the carry.
  private mutating func takeCarry<Result>(
    _ body: (UnsafeRawBufferPointer) throws(HTTPStreamError) -> Result
  ) throws(HTTPStreamError) -> Result {
    if terminators == .lineFeed, carry.last == 0x0D { carry.removeLast() }
    guard carry.count <= maximumLength else { throw .lineTooLong(maximumLength: maximumLength) }
    let result = try carry.withBytes(body)
    // Keep a small buffer for the next carried line; let a large one go.
    carry.removeAll(keepingCapacity: carry.capacity <= 4096)
    return result
  }

  /// A carried, unterminated line may exceed the limit by one byte only when that byte is a
  /// CR whose LF has not arrived (`.lineFeed`): anything longer can no longer fit.
  private func checkCarriedLength() throws(HTTPStreamError) {
    guard carry.count > maximumLength else { return }
    if terminators == .lineFeed, carry.count == maximumLength + 1, carry.last == 0x0D { return }
    throw .lineTooLong(maximumLength: maximumLength)
  }
}
