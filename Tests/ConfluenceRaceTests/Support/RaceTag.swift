/// A value sent in a race scenario: which thread sent it and where it comes in that thread's
/// sends. Every value a scenario sends is distinct, so the checks can tell a value delivered
/// twice from two values, and see each thread's order.
struct RaceTag: Hashable, Sendable, CustomStringConvertible {
  /// The sending thread's index in the scenario (0, 1, …), or -1 for a value that no
  /// scenario thread sent (a subject's initial value, a value the test thread sends).
  let thread: Int
  /// The value's place among its thread's values, from 0.
  let seq: Int

  init(thread: Int, seq: Int) {
    self.thread = thread
    self.seq = seq
  }

  /// A `CurrentValueSubject`'s or `@Published` property's initial value.
  static let initial = RaceTag(thread: -1, seq: 0)

  /// A value the test thread sends before or after the scenario's threads run.
  static func main(_ seq: Int) -> RaceTag { RaceTag(thread: -1, seq: seq + 1) }

  /// The first "thread" of echoes: a subscriber that sends a value from inside its
  /// `receive(_:)` for thread `t`'s value `n` sends `echo(of:)`, thread `echoBase + t`.
  static let echoBase = 90

  /// The value a subscriber sends back from inside `receive(_:)` on receiving `tag`.
  static func echo(of tag: RaceTag) -> RaceTag { RaceTag(thread: echoBase + tag.thread, seq: tag.seq) }

  /// Whether this is an echo (`echo(of:)`).
  var isEcho: Bool { thread >= RaceTag.echoBase }

  var description: String {
    if isEcho { return "the echo of thread \(thread - RaceTag.echoBase)'s value \(seq)" }
    if thread >= 0 { return "thread \(thread)'s value \(seq)" }
    return seq == 0 ? "the initial value" : "the test thread's value \(seq - 1)"
  }

  /// The form the event logs use: `t1#3`, `init`, `main#0`.
  var short: String {
    if isEcho { return "echo(t\(thread - RaceTag.echoBase)#\(seq))" }
    if thread >= 0 { return "t\(thread)#\(seq)" }
    return seq == 0 ? "init" : "main#\(seq - 1)"
  }

  /// One integer for an atomic slot (0 means none).
  var packed: Int { (thread + 2) << 32 | seq }

  init?(packed: Int) {
    guard packed != 0 else { return nil }
    self.init(thread: (packed >> 32) - 2, seq: packed & 0xFFFF_FFFF)
  }
}

/// The error a scenario fails its publishers with.
struct RaceFailure: Error, Equatable, Sendable {
  let thread: Int
}
