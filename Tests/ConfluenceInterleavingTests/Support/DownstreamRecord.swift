/// What a model's downstream subscriber has seen, with the checks every model makes on it:
/// never two events inside it at once, no value twice, nothing after its completion, one
/// completion, and — once a cancel has returned — at most one value starting (the one
/// already in flight). The first violation is kept; a model reports it from
/// `violation(in:)`.
struct DownstreamRecord: Hashable {
  /// Values delivered, in order.
  var log: [Int] = []
  var completions = 0
  /// Events being delivered right now (more than one is a violation).
  var inside = 0
  /// Set when the canceller's `cancel()` has returned.
  var cancelReturned = false
  /// Values that started after `cancel()` returned.
  var startedAfterCancel = 0
  var violation: String?

  /// A value enters the subscriber (the call starts).
  mutating func enter(_ value: Int) {
    if inside > 0 { fail("\(value) arrived during another event") }
    if completions > 0 { fail("\(value) arrived after the completion") }
    if log.contains(value) { fail("\(value) was delivered twice") }
    if cancelReturned {
      startedAfterCancel += 1
      if startedAfterCancel > 1 { fail("a second value (\(value)) started after cancel() returned") }
    }
    inside += 1
    log.append(value)
  }

  /// The completion enters the subscriber.
  mutating func enterCompletion() {
    if inside > 0 { fail("the completion arrived during another event") }
    if completions > 0 { fail("a second completion") }
    completions += 1
    inside += 1
  }

  /// The call in progress returns.
  mutating func exit() {
    inside -= 1
  }

  mutating func fail(_ message: String) {
    if violation == nil { violation = message }
  }
}
