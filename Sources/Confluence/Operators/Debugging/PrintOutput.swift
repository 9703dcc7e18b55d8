/// Where the `print` operator writes its lines when given a custom `TextOutputStream`.
///
/// The stream is a non-`Sendable` existential and its `write(_:)` is user code, so it is
/// never called with a lock held, yet it must never be written from two threads at once.
/// Writers therefore take turns through a claim: the first thread to arrive becomes the
/// writer and writes its line; lines that arrive meanwhile (from other threads, or
/// re-entrantly from inside the stream's own `write`) are queued under the lock and
/// written, in order, by that same writer before it gives up the claim.
///
/// One `PrintOutput` belongs to one ``Publishers/Print`` value and is shared by all of its
/// subscriptions, so a class-typed stream sees one line at a time from all of them.
@usableFromInline
internal final class PrintOutput {
  @usableFromInline
  internal let lock = Lock()

  /// Lines waiting for the current writer (guarded by `lock`).
  @usableFromInline
  internal var pendingLines: [String] = []

  /// Whether some thread holds the writer claim (guarded by `lock`).
  @usableFromInline
  internal var isWriting = false

  /// Touched only by the thread that holds the writer claim, outside the lock.
  @usableFromInline
  internal var stream: any TextOutputStream

  @inlinable
  internal init(stream: any TextOutputStream) {
    self.stream = stream
  }

  /// Writes `line` the way `print(_:to:)` does: `""`, the line, then `"\n"`.
  @inlinable
  internal func write(line: String) {
    let claimed = lock.withLock { () -> Bool in
      if isWriting {
        pendingLines.append(line)
        return false
      }
      isWriting = true
      return true
    }
    guard claimed else { return }
    writeToStream(line)
    while true {
      let queued = lock.withLock { () -> [String] in
        if pendingLines.isEmpty {
          isWriting = false
          return []
        }
        defer { pendingLines = [] }
        return pendingLines
      }
      if queued.isEmpty { return }
      for line in queued {
        writeToStream(line)
      }
    }
  }

  /// Called only by the claim holder.
  @inlinable
  internal func writeToStream(_ line: String) {
    // The calls `print(_:to:)` makes for one string (an empty separator first, the line,
    // the terminator), as with Apple's operator.
    stream.write("")
    stream.write(line)
    stream.write("\n")
  }
}
