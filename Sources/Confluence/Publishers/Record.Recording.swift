extension Record {
  /// A recorded sequence of outputs, followed by a completion value.
  ///
  /// Build one value by value with ``receive(_:)`` and ``receive(completion:)``, or all at
  /// once with ``init(output:completion:)``:
  ///
  /// ```swift
  /// var recording = Record<Int, Never>.Recording()
  /// recording.receive(1)
  /// recording.receive(2)
  /// recording.receive(completion: .finished)
  /// let record = Record(recording: recording)
  /// ```
  ///
  /// Recording a value or a completion after the completion is a programming error and
  /// traps. A recording that never received a completion plays back as `.finished`.
  public struct Recording {
    /// The type of values the recording receives: the record's `Output`.
    public typealias Input = Output

    /// The output which will be sent to a `Subscriber`.
    public private(set) var output: [Output]

    /// The completion which will be sent to a `Subscriber`.
    public private(set) var completion: Subscribers.Completion<Failure>

    /// Whether a completion has been recorded; no more input is accepted after it.
    private var isComplete: Bool

    /// Set up a recording in a state ready to receive output.
    public init() {
      output = []
      completion = .finished
      isComplete = false
    }

    /// Set up a complete recording with the specified output and completion.
    ///
    /// - Parameters:
    ///   - output: The values to replay, in order.
    ///   - completion: The completion to send after the values; `.finished` by default.
    public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
      self.output = output
      self.completion = completion
      isComplete = true
    }

    /// Add an output to the recording.
    ///
    /// A `fatalError` will be raised if output is added after adding completion.
    ///
    /// - Parameter input: The value to append.
    public mutating func receive(_ input: Input) {
      guard !isComplete else {
        fatalError("Record.Recording.receive(_:): a value was recorded after the completion")
      }
      output.append(input)
    }

    /// Add a completion to the recording.
    ///
    /// A `fatalError` will be raised if more than one completion is added.
    ///
    /// - Parameter completion: The completion that ends the recording.
    public mutating func receive(completion: Subscribers.Completion<Failure>) {
      guard !isComplete else {
        fatalError("Record.Recording.receive(completion:): a second completion was recorded")
      }
      self.completion = completion
      isComplete = true
    }
  }
}

extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}

/// The keys of an encoded ``Record/Recording``.
private enum RecordingCodingKeys: String, CodingKey {
  case output
  case completion
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
  /// Creates a complete recording from a decoder: the keyed values `output` and
  /// `completion`.
  ///
  /// - Parameter decoder: The decoder to read data from.
  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: RecordingCodingKeys.self)
    self.init(
      output: try container.decode([Output].self, forKey: .output),
      completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
  }

  /// Encodes the recording as the keyed values `output` and `completion`.
  ///
  /// The same as ``encode(to:)``; kept because Apple's Combine declares it.
  ///
  /// - Parameter encoder: The encoder to write data to.
  public func encode(into encoder: Encoder) throws {
    try encode(to: encoder)
  }

  /// Encodes the recording as the keyed values `output` and `completion`.
  ///
  /// - Parameter encoder: The encoder to write data to.
  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: RecordingCodingKeys.self)
    try container.encode(output, forKey: .output)
    try container.encode(completion, forKey: .completion)
  }
}
