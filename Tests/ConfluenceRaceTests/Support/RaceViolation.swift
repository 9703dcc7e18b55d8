/// An outcome a scenario must never show, with a sentence that says what was seen.
struct RaceViolation: Sendable, CustomStringConvertible {
  /// What kind of promise was broken (the per-scenario summary counts them by kind).
  enum Kind: String, Sendable, CaseIterable {
    case lost = "lost value"
    case duplicated = "duplicated value"
    case reordered = "out of its thread's order"
    case overlapping = "two events at once"
    case overDemand = "more than demanded"
    case completion = "completion"
    case afterCompletion = "event after completion"
    case afterCancel = "event after cancel returned"
    case notReleased = "not released"
    case wrongThread = "delivered on another thread"
    case subscriptions = "upstream subscriptions"
    case hang = "hang"
    case unexpected = "unexpected value"
  }

  let kind: Kind
  let message: String

  init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  var description: String { message }
}
