/// The most common shape of a scenario: a few threads send while one more interrupts them
/// (a cancel, a completion). The interrupting thread notes how many of each sender's sends
/// had returned just before it acted, which is what the checks need: every value whose send
/// returned before the interruption began must be delivered (`unbrokenStarts`).
final class RaceInterruptedSenders: Sendable {
  /// How many threads send, and how many values each.
  let senders: Int
  let count: Int

  /// Per sender, how many of its sends had returned when the interruption began.
  let returnedBefore: [RaceCell]

  private init(senders: Int, count: Int) {
    self.senders = senders
    self.count = count
    returnedBefore = (0..<senders).map { _ in RaceCell() }
  }

  /// Starts `senders` threads that each send `count` values through `send`, and one thread
  /// that waits a random while (fewer than `pauses` pauses), notes each sender's progress,
  /// then runs `interrupt`.
  static func start(
    in iteration: RaceIteration, senders: Int = 2, count: Int = 8, pauses: Int = 12,
    send: @escaping @Sendable (RaceTag) -> Void, interrupt: @escaping @Sendable () -> Void
  ) -> RaceInterruptedSenders {
    let run = RaceInterruptedSenders(senders: senders, count: count)
    let progress = (0..<senders).map { _ in RaceProgress() }
    for sender in 0..<senders {
      iteration.thread { $0.send(count, progress: progress[sender], send) }
    }
    iteration.thread { actor in
      actor.pauses(pauses)
      for sender in 0..<senders { run.returnedBefore[sender].value = progress[sender].returnedCount }
      interrupt()
    }
    return run
  }

  /// For each sender, `RaceCheck.unbrokenStart`: the subscriber got the sender's first
  /// values without a gap, through at least every one whose send returned before the
  /// interruption.
  func unbrokenStarts(_ recorder: RaceRecorder) -> [RaceViolation] {
    (0..<senders).flatMap {
      RaceCheck.unbrokenStart(recorder, thread: $0, mustThrough: returnedBefore[$0].value - 1)
    }
  }

  /// Every value every sender sent.
  var allTags: [RaceTag] { raceTags(threads: 0..<senders, count: count) }
}
