/// The outcome checks a scenario combines: each reads a recorder's events after the threads
/// returned and says, in a sentence per breach, what must never have happened but did.
enum RaceCheck {
  /// Every value of `expected` reached the subscriber exactly once, and nothing else did.
  static func exactlyOnce(_ recorder: RaceRecorder, _ expected: [RaceTag]) -> [RaceViolation] {
    let events = recorder.events
    var deliveries: [RaceTag: [String]] = [:]
    for event in events {
      if let tag = event.value { deliveries[tag, default: []].append(event.thread) }
    }
    var found: [RaceViolation] = []
    let wanted = Set(expected)
    for tag in expected {
      let threads = deliveries[tag] ?? []
      if threads.isEmpty {
        found.append(RaceViolation(.lost, "\(tag) was never delivered to subscriber \(recorder.name)"))
      } else if threads.count > 1 {
        found.append(duplicate(tag, threads, recorder))
      }
    }
    for (tag, threads) in deliveries.sorted(by: { order($0.key, $1.key) }) where !wanted.contains(tag) {
      found.append(
        RaceViolation(
          .unexpected,
          "subscriber \(recorder.name) received \(tag) (on \(threads.joined(separator: ", "))), never sent to it"
        ))
    }
    return found
  }

  /// No value reached the subscriber twice.
  static func noDuplicates(_ recorder: RaceRecorder) -> [RaceViolation] {
    var deliveries: [RaceTag: [String]] = [:]
    for event in recorder.events {
      if let tag = event.value { deliveries[tag, default: []].append(event.thread) }
    }
    return deliveries.filter { $0.value.count > 1 }.sorted(by: { order($0.key, $1.key) }).map {
      duplicate($0.key, $0.value, recorder)
    }
  }

  /// Each thread's values reached the subscriber in the order that thread sent them.
  static func threadOrder(_ recorder: RaceRecorder) -> [RaceViolation] {
    var last: [Int: Int] = [:]
    var found: [RaceViolation] = []
    for tag in recorder.values where tag.thread >= 0 {
      if let previous = last[tag.thread], previous >= tag.seq {
        if previous != tag.seq {
          found.append(
            RaceViolation(
              .reordered,
              "subscriber \(recorder.name) received \(tag) after the same thread's value \(previous)"))
        }
      }
      last[tag.thread] = max(last[tag.thread] ?? -1, tag.seq)
    }
    return found
  }

  /// Each value sent by a scenario thread was delivered on that thread, inside its `send`
  /// (the subjects' rule: a send waits for a delivery in progress, then delivers its own
  /// value itself).
  static func onSendersThread(_ recorder: RaceRecorder) -> [RaceViolation] {
    recorder.events.compactMap { event in
      guard let tag = event.value, tag.thread >= 0, !tag.isEcho, event.threadIndex != tag.thread else { return nil }
      return RaceViolation(
        .wrongThread, "\(tag) reached subscriber \(recorder.name) on \(event.thread), not inside its own send")
    }
  }

  /// The values of `thread` that the subscriber received are an unbroken run that ends with
  /// the thread's last value (`sent - 1`) and starts at `mustFrom` or earlier: a subscriber
  /// that subscribed while the thread was sending may or may not get the values sent
  /// meanwhile, but once it got one it gets every later one, and it gets every value sent
  /// after it had subscribed (from `mustFrom` on).
  static func unbrokenRun(_ recorder: RaceRecorder, thread: Int, sent: Int, mustFrom: Int) -> [RaceViolation] {
    let seqs = Set(recorder.values.filter { $0.thread == thread }.map(\.seq))
    let first = seqs.min() ?? sent
    var found: [RaceViolation] = []
    for seq in min(first, mustFrom)..<sent where !seqs.contains(seq) {
      let tag = RaceTag(thread: thread, seq: seq)
      if seq >= mustFrom {
        found.append(
          RaceViolation(
            .lost, "subscriber \(recorder.name) never received \(tag), sent after it had subscribed"))
      } else {
        found.append(
          RaceViolation(
            .lost,
            "subscriber \(recorder.name) missed \(tag) though it had received the same thread's value \(first) before it"
          ))
      }
    }
    return found
  }

  /// The values of `thread` that the subscriber received are its first ones, without a gap,
  /// and include every one up to `mustThrough` (a thread racing a completion: a value it
  /// sent before the completion was sent is delivered; after a value that was not, none is).
  static func unbrokenStart(_ recorder: RaceRecorder, thread: Int, mustThrough: Int) -> [RaceViolation] {
    let seqs = Set(recorder.values.filter { $0.thread == thread }.map(\.seq))
    let last = seqs.max() ?? -1
    var found: [RaceViolation] = []
    for seq in 0..<(max(last, mustThrough) + 1) where !seqs.contains(seq) {
      let tag = RaceTag(thread: thread, seq: seq)
      if seq <= mustThrough {
        found.append(
          RaceViolation(
            .lost,
            "subscriber \(recorder.name) never received \(tag), whose send had returned before the completion was sent")
        )
      } else {
        found.append(
          RaceViolation(
            .lost,
            "subscriber \(recorder.name) missed \(tag) but received the same thread's later value \(last)"))
      }
    }
    return found
  }

  /// Each echo (a value sent from inside `receive(_:)`) came after the value it answers:
  /// a send from inside a delivery is queued and delivered after it.
  static func echoesAfterTheirValues(_ recorder: RaceRecorder) -> [RaceViolation] {
    let values = recorder.values
    var found: [RaceViolation] = []
    for (index, tag) in values.enumerated() where tag.isEcho {
      let answered = RaceTag(thread: tag.thread - RaceTag.echoBase, seq: tag.seq)
      if !values[..<index].contains(answered) {
        found.append(
          RaceViolation(
            .reordered, "subscriber \(recorder.name) received \(tag) before \(answered), the value it answers"))
      }
    }
    return found
  }

  /// At most one event started after `cancel()` returned (the one already in flight).
  static func atMostOneAfterCancel(_ recorder: RaceRecorder) -> [RaceViolation] {
    let late = recorder.events.filter(\.afterCancel)
    guard late.count > 1 else { return [] }
    return [
      RaceViolation(
        .afterCancel,
        "subscriber \(recorder.name) received \(late.count) events that started after cancel() had returned: "
          + late.map(\.description).joined(separator: " "))
    ]
  }

  /// Exactly one completion (one of `allowed`, if given), and it came last.
  static func oneCompletion(_ recorder: RaceRecorder, allowed: [String]? = nil) -> [RaceViolation] {
    let events = recorder.events
    let completions = events.filter(\.isCompletion)
    guard let completion = completions.first else {
      return [RaceViolation(.completion, "subscriber \(recorder.name) never received a completion")]
    }
    var found: [RaceViolation] = []
    if completions.count > 1 {
      found.append(
        RaceViolation(.completion, "subscriber \(recorder.name) received \(completions.count) completions"))
    }
    if let allowed, case .completion(let what) = completion.kind, !allowed.contains(what) {
      found.append(
        RaceViolation(
          .completion, "subscriber \(recorder.name) completed with \(what), expected one of \(allowed)"))
    }
    if let index = events.firstIndex(where: \.isCompletion),
      let later = events[(index + 1)...].first(where: { $0.value != nil })
    {
      found.append(
        RaceViolation(.afterCompletion, "subscriber \(recorder.name) received \(later) after its completion"))
    }
    return found
  }

  /// No completion at all.
  static func noCompletion(_ recorder: RaceRecorder) -> [RaceViolation] {
    recorder.completions.isEmpty
      ? [] : [RaceViolation(.completion, "subscriber \(recorder.name) completed (\(recorder.completions)) unasked")]
  }

  /// The object is gone.
  static func released(_ weak: RaceWeak, _ what: String) -> [RaceViolation] {
    weak.object == nil ? [] : [RaceViolation(.notReleased, "\(what) still alive after the threads returned")]
  }

  private static func duplicate(_ tag: RaceTag, _ threads: [String], _ recorder: RaceRecorder) -> RaceViolation {
    RaceViolation(
      .duplicated,
      "\(tag) was delivered \(threads.count) times to subscriber \(recorder.name) (on \(threads.joined(separator: ", ")))"
    )
  }

  private static func order(_ lhs: RaceTag, _ rhs: RaceTag) -> Bool {
    (lhs.thread, lhs.seq) < (rhs.thread, rhs.seq)
  }
}
