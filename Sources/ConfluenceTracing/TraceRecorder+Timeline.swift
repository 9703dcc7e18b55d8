import Confluence

extension TraceRecorder {
  /// The events kept as a timeline for the terminal: one line per event, oldest first —
  /// the time since the recording started (milliseconds), the thread, the lane and what
  /// happened.
  ///
  /// ```
  ///     0.167 ms  T1  #1 tens     subscribed
  ///     0.308 ms  T1  #2 numbers  subscribed
  ///     0.780 ms  T1  #2 numbers  subscription([1, 2, 3])
  ///     0.892 ms  T1  #1 tens     subscription(Trace)
  ///     0.893 ms  T1  #1 tens     request(max(2))
  /// ```
  ///
  /// - Parameters:
  ///   - showingTimes: Whether to show the time column (leave it out to compare runs).
  ///   - showingThreads: Whether to show the thread column.
  public func timeline(showingTimes: Bool = true, showingThreads: Bool = true) -> String {
    let events = self.events
    let width = events.map { "#\($0.lane) \($0.laneName)".count }.max() ?? 0
    var out = ""
    for event in events {
      var line = ""
      if showingTimes {
        let (seconds, attoseconds) = event.time.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let milliseconds = "\(microseconds / 1_000).\(String(String(microseconds % 1_000 + 1_000).dropFirst()))"
        line += String(repeating: " ", count: max(0, 9 - milliseconds.count)) + milliseconds + " ms  "
      }
      if showingThreads { line += "T\(event.thread)  " }
      let lane = "#\(event.lane) \(event.laneName)"
      line += lane + String(repeating: " ", count: width - lane.count) + "  " + event.kind.description
      out += line + "\n"
    }
    return out
  }

  /// The events kept as marble lines, one per lane in lane order: `^` the subscription,
  /// `r<n>` a request (`r∞` unlimited), `+<n>` demand returned from `receive`, each value
  /// as its description, `|` finished, `X(error)` failed, `!` cancelled.
  ///
  /// ```
  /// #1 numbers  ^ r2 1 2 r1 3 |
  /// ```
  public func marbles() -> String {
    let events = self.events
    var order: [Int] = []
    var names: [Int: String] = [:]
    var marks: [Int: [String]] = [:]
    for event in events {
      if names[event.lane] == nil {
        order.append(event.lane)
        names[event.lane] = "#\(event.lane) \(event.laneName)"
      }
      let mark: String?
      switch event.kind {
      case .subscribed: mark = nil
      case .subscription: mark = "^"
      case .request(let demand): mark = "r" + (demand.max.map(String.init) ?? "∞")
      case .demandReturned(let demand): mark = "+" + (demand.max.map(String.init) ?? "∞")
      case .value(let value): mark = value
      case .finished: mark = "|"
      case .failure(let error): mark = "X(\(error))"
      case .cancel: mark = "!"
      }
      if let mark { marks[event.lane, default: []].append(mark) }
    }
    let width = names.values.map(\.count).max() ?? 0
    return order.map { lane in
      let name = names[lane] ?? ""
      return name + String(repeating: " ", count: width - name.count) + "  "
        + (marks[lane] ?? []).joined(separator: " ")
    }.joined(separator: "\n") + (order.isEmpty ? "" : "\n")
  }
}
