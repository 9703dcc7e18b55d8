import Confluence

// Marble diagrams: one virtual tick per character.
//
//   -      a tick with no event
//   a      a value (looked up in a dictionary), then the next tick
//   |      finished
//   #      failure
//   (ab|)  several events in the same tick; the group counts as one tick
//   space  ignored, for alignment

extension TestSequence {
  /// Parses a marble diagram into a sequence, one tick per character from time 0.
  ///
  /// ```swift
  /// let events = TestSequence<Int, TestError>(marbles: "-a--b-#", values: ["a": 1, "b": 2], error: TestError())
  /// // [(1, .input(1)), (4, .input(2)), (6, .completion(.failure(TestError())))]
  /// ```
  ///
  /// - Parameters:
  ///   - marbles: The diagram.
  ///   - values: The value each value character stands for.
  ///   - error: What `#` fails with; required only if the diagram has a `#`.
  /// - Precondition: Every value character is in `values`, and groups are closed.
  public init(marbles: String, values: [Character: Input], error: Failure? = nil) {
    var elements: [Element] = []
    var tick = 0
    var inGroup = false
    for character in marbles {
      let time = VirtualTime(tick)
      switch character {
      case " ":
        continue
      case "-":
        confluencePrecondition(!inGroup, "marbles: '-' inside a group in \"\(marbles)\"")
      case "(":
        confluencePrecondition(!inGroup, "marbles: nested group in \"\(marbles)\"")
        inGroup = true
        continue
      case ")":
        confluencePrecondition(inGroup, "marbles: ')' without '(' in \"\(marbles)\"")
        inGroup = false
      case "|":
        elements.append((time: time, signal: .completion(.finished)))
      case "#":
        guard let error else { confluencePreconditionFailure("marbles: '#' in \"\(marbles)\" but no error given") }
        elements.append((time: time, signal: .completion(.failure(error))))
      default:
        guard let value = values[character] else {
          confluencePreconditionFailure("marbles: no value for '\(character)' in \"\(marbles)\"")
        }
        elements.append((time: time, signal: .input(value)))
      }
      if !inGroup { tick += 1 }
    }
    confluencePrecondition(!inGroup, "marbles: unclosed group in \"\(marbles)\"")
    self.init(elements)
  }

  /// Draws the sequence as a marble diagram, one tick per character from `origin` (by
  /// default the time of the first ``Signal/subscription``, else 0), up to the last event.
  ///
  /// ```swift
  /// results.recordedOutput.marbles { "\($0)".first! }   // "--1---2|"
  /// ```
  ///
  /// - Parameters:
  ///   - origin: The time of the first character.
  ///   - symbol: The character that stands for a value.
  /// - Returns: The diagram; subscriptions are not drawn, failures draw as `#`.
  public func marbles(origin: VirtualTime? = nil, _ symbol: (Input) -> Character) -> String {
    let start =
      origin ?? elements.first { if case .subscription = $0.signal { return true } else { return false } }?.time ?? 0
    var byTick: [Int: [Character]] = [:]
    var last = -1
    for (time, signal) in elements {
      let tick = start.distance(to: time).ticks
      let character: Character
      switch signal {
      case .subscription: continue
      case .input(let value): character = symbol(value)
      case .completion(.finished): character = "|"
      case .completion(.failure): character = "#"
      }
      guard tick >= 0 else { continue }
      byTick[tick, default: []].append(character)
      last = Swift.max(last, tick)
    }
    guard last >= 0 else { return "" }
    var diagram = ""
    for tick in 0...last {
      switch byTick[tick] {
      case nil: diagram.append("-")
      case let group? where group.count == 1: diagram.append(group[0])
      case let group?: diagram += "(" + String(group) + ")"
      }
    }
    return diagram
  }
}

extension TestSequence where Input: Equatable {
  /// Draws the sequence as a marble diagram, naming values by `values` (`?` for a value
  /// not in it).
  ///
  /// - Parameters:
  ///   - values: The character for each value.
  ///   - origin: The time of the first character (see ``marbles(origin:_:)``).
  public func marbles(values: [Character: Input], origin: VirtualTime? = nil) -> String {
    // By key, not `values.first { $0.value == value }`: the dictionary's element is a tuple of
    // a generic type, which generic code makes at run time (see `Scripts/check-abstract-metadata`).
    marbles(origin: origin) { value in values.keys.first { values[$0] == value } ?? "?" }
  }
}

extension TestSequence where Input == String {
  /// Parses a marble diagram whose value characters stand for themselves as strings.
  ///
  /// ```swift
  /// let events = TestSequence<String, Never>(marbles: "-a-b|")
  /// ```
  public init(marbles: String, error: Failure? = nil) {
    var values: [Character: String] = [:]
    for character in marbles where !"-|#() ".contains(character) { values[character] = String(character) }
    self.init(marbles: marbles, values: values, error: error)
  }

  /// Draws the sequence as a marble diagram, each value as its first character.
  public func marbles(origin: VirtualTime? = nil) -> String {
    marbles(origin: origin) { $0.first ?? "?" }
  }
}

extension TestScheduler where SchedulerTimeType == VirtualTime {
  /// Makes a relative ``TestablePublisher`` from a marble diagram.
  ///
  /// ```swift
  /// let input = scheduler.createTestablePublisher(marbles: "-a--b-c|", values: ["a": 1, "b": 2, "c": 3])
  /// let results = scheduler.start { input.debounce(for: 2, scheduler: scheduler) }
  /// XCTAssertEqual(results.recordedOutput.marbles(values: ["a": 1, "b": 2, "c": 3]), "---a---|")
  /// ```
  public func createTestablePublisher<Value>(
    marbles: String, values: [Character: Value]
  ) -> TestablePublisher<Value, Never> {
    createRelativeTestablePublisher(TestSequence(marbles: marbles, values: values))
  }

  /// Makes a relative ``TestablePublisher`` from a marble diagram in which `#` fails with
  /// `error`.
  public func createTestablePublisher<Value, Failure: Error>(
    marbles: String, values: [Character: Value], error: Failure
  ) -> TestablePublisher<Value, Failure> {
    createRelativeTestablePublisher(TestSequence(marbles: marbles, values: values, error: error))
  }

  /// Makes a relative ``TestablePublisher`` of one-character strings from a marble diagram.
  public func createTestablePublisher(marbles: String) -> TestablePublisher<String, Never> {
    createRelativeTestablePublisher(TestSequence(marbles: marbles))
  }
}
