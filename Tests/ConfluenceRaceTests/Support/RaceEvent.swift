/// One event a `RaceRecorder` saw, with the thread that delivered it.
struct RaceEvent: Sendable, CustomStringConvertible {
  enum Kind: Sendable {
    case subscription
    case value(RaceTag)
    case completion(String)
    /// `cancel()` returned (on the thread named).
    case cancelReturned
    /// The subscriber asked for more (on the thread named).
    case requested(String)
  }

  let kind: Kind
  /// `t0`, `t1`, …, `main` or `other`.
  let thread: String
  /// The index of the scenario thread that delivered it, or -1.
  let threadIndex: Int
  /// The event started after `cancel()` had returned.
  let afterCancel: Bool

  var value: RaceTag? {
    if case .value(let tag) = kind { return tag }
    return nil
  }

  var isCompletion: Bool {
    if case .completion = kind { return true }
    return false
  }

  var description: String {
    let what: String
    switch kind {
    case .subscription: what = "subscription"
    case .value(let tag): what = tag.short
    case .completion(let completion): what = completion
    case .cancelReturned: what = "cancel-returned"
    case .requested(let demand): what = "request(\(demand))"
    }
    return "\(what)@\(thread)" + (afterCancel ? "(after cancel)" : "")
  }
}
