import Confluence

extension Publisher where Output: Sendable {
  /// Subscribes, waits for the first `count` values, then cancels and returns them.
  ///
  /// The publisher is watched by a ``TestSubscriber``: a contract violation fails the
  /// running test (Swift Testing or XCTest) at the caller's line.
  ///
  /// ```swift
  /// @Test func firstTwo() async throws {
  ///   let values = try await [1, 2, 3].publisher.firstValues(2)
  ///   #expect(values == [1, 2])
  /// }
  /// ```
  ///
  /// Back-pressure: requests exactly `count` values.
  ///
  /// - Parameters:
  ///   - count: How many values to wait for.
  ///   - timeout: How long to wait, in real time, before throwing.
  ///   - fileID: Where a failure is reported under Swift Testing; the caller's by default.
  ///   - file: Where a failure is reported under XCTest; the caller's by default.
  ///   - line: The line a failure is reported at; the caller's by default.
  ///   - column: The column a failure is reported at under Swift Testing; the caller's by default.
  /// - Returns: The first `count` values.
  /// - Throws: The publisher's failure if it fails first; ``PublisherWaitError`` if it
  ///   finishes first or the time limit passes; `CancellationError` if the task is cancelled.
  public func firstValues(
    _ count: Int, timeout: Duration = .seconds(5), fileID: StaticString = #fileID,
    file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws -> [Output] {
    confluencePrecondition(count >= 0, "firstValues(_:timeout:) was called with a negative count \(count)")
    let location = CheckLocation(fileID: fileID, filePath: file, line: line, column: column)
    let recording = try await awaitEvents(until: .values(count), timeout: timeout, location: location)
    if case .failure(let failure) = recording.completion, recording.values.count < count { throw failure }
    if recording.values.count < count {
      throw PublisherWaitError(
        reason: .finishedEarly, awaited: "\(count) values", received: recording.values.map { "\($0)" })
    }
    return recording.values
  }

  /// Subscribes with unlimited demand and waits until the publisher finishes; returns
  /// every value it sent.
  ///
  /// ```swift
  /// @Test func doubles() async throws {
  ///   #expect(try await [1, 2].publisher.map { $0 * 2 }.allValues() == [2, 4])
  /// }
  /// ```
  ///
  /// Back-pressure: requests unlimited values.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait, in real time, before throwing.
  ///   - fileID: Where a failure is reported under Swift Testing; the caller's by default.
  ///   - file: Where a failure is reported under XCTest; the caller's by default.
  ///   - line: The line a failure is reported at; the caller's by default.
  ///   - column: The column a failure is reported at under Swift Testing; the caller's by default.
  /// - Returns: Every value, in order.
  /// - Throws: The publisher's failure if it fails; ``PublisherWaitError`` if the time limit
  ///   passes; `CancellationError` if the task is cancelled.
  public func allValues(
    timeout: Duration = .seconds(5), fileID: StaticString = #fileID,
    file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws -> [Output] {
    let location = CheckLocation(fileID: fileID, filePath: file, line: line, column: column)
    let recording = try await awaitEvents(until: .completion, timeout: timeout, location: location)
    if case .failure(let failure) = recording.completion { throw failure }
    return recording.values
  }

  /// Subscribes with unlimited demand and waits for the completion, whether finished or
  /// failed; returns the values and the completion.
  ///
  /// ```swift
  /// @Test func failsAfterOne() async throws {
  ///   let recording = try await Fail<Int, TestError>(error: TestError()).awaitCompletion()
  ///   #expect(recording.values.isEmpty)
  ///   #expect(recording.completion == .failure(TestError()))
  /// }
  /// ```
  ///
  /// Back-pressure: requests unlimited values.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait, in real time, before throwing.
  ///   - fileID: Where a failure is reported under Swift Testing; the caller's by default.
  ///   - file: Where a failure is reported under XCTest; the caller's by default.
  ///   - line: The line a failure is reported at; the caller's by default.
  ///   - column: The column a failure is reported at under Swift Testing; the caller's by default.
  /// - Returns: The values and the completion.
  /// - Throws: ``PublisherWaitError`` if the time limit passes; `CancellationError` if the
  ///   task is cancelled.
  public func awaitCompletion(
    timeout: Duration = .seconds(5), fileID: StaticString = #fileID,
    file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws -> PublisherRecording<Output, Failure> {
    let location = CheckLocation(fileID: fileID, filePath: file, line: line, column: column)
    return try await awaitEvents(until: .completion, timeout: timeout, location: location)
  }

  /// Subscribes a contract-checking subscriber and resumes when `goal` is met, the
  /// publisher completes, the time limit passes or the task is cancelled.
  private func awaitEvents(
    until goal: AwaitGoal, timeout: Duration, location: CheckLocation
  ) async throws -> PublisherRecording<Output, Failure> {
    let demand: Subscribers.Demand
    switch goal {
    case .values(let count): demand = count == 0 ? .none : .max(count)
    case .completion: demand = .unlimited
    }
    let subscriber = TestSubscriber<Output, Failure>(
      initialDemand: demand, fileID: location.fileID, file: location.filePath, line: location.line,
      column: location.column)
    let slot = AwaitSlot<PublisherRecording<Output, Failure>>()
    defer {
      subscriber.cancel()
      subscriber.onValue = nil
      subscriber.onCompletion = nil
    }
    let awaited: String
    switch goal {
    case .values(let count): awaited = "\(count) values"
    case .completion: awaited = "the completion"
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        slot.install(continuation)
        let timer = Task {
          try? await Task.sleep(for: timeout)
          if Task.isCancelled { return }
          slot.resume(
            throwing: PublisherWaitError(
              reason: .timedOut(timeout), awaited: awaited, received: subscriber.values.map { "\($0)" }))
        }
        slot.onResume { timer.cancel() }
        subscriber.onValue = { [weak subscriber] _ in
          if case .values(let count) = goal, let values = subscriber?.values, values.count >= count {
            slot.resume(returning: PublisherRecording(values: values, completion: .finished))
          }
          return .none
        }
        subscriber.onCompletion = { [weak subscriber] completion in
          slot.resume(returning: PublisherRecording(values: subscriber?.values ?? [], completion: completion))
        }
        if case .values(0) = goal {
          slot.resume(returning: PublisherRecording(values: [], completion: .finished))
          return
        }
        subscribe(subscriber)
      }
    } onCancel: {
      slot.resume(throwing: CancellationError())
    }
  }
}

/// What an await helper waits for.
private enum AwaitGoal {
  case values(Int)
  case completion
}

/// A continuation resumed at most once, by whichever comes first: the publisher's events,
/// the time limit or the task's cancellation.
private final class AwaitSlot<Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: every field is read and written only under `lock`; the
  // continuation and the resume hook are taken out under it and called after it is released.
  private let lock = Lock()
  private var continuation: CheckedContinuation<Value, Error>?
  private var early: Result<Value, Error>?
  private var isResumed = false
  private var resumeHook: (@Sendable () -> Void)?

  func install(_ continuation: CheckedContinuation<Value, Error>) {
    let early = lock.withLock { () -> Result<Value, Error>? in
      if let early = self.early { return early }
      self.continuation = continuation
      return nil
    }
    if let early { continuation.resume(with: early) }
  }

  func onResume(_ hook: @escaping @Sendable () -> Void) {
    let runNow = lock.withLock { () -> Bool in
      if isResumed { return true }
      resumeHook = hook
      return false
    }
    if runNow { hook() }
  }

  func resume(returning value: Value) { resume(with: .success(value)) }

  func resume(throwing error: Error) { resume(with: .failure(error)) }

  private func resume(with result: Result<Value, Error>) {
    let taken = lock.withLock { () -> (CheckedContinuation<Value, Error>?, (@Sendable () -> Void)?)? in
      if isResumed { return nil }
      isResumed = true
      if continuation == nil { early = result }
      defer {
        continuation = nil
        resumeHook = nil
      }
      return (continuation, resumeHook)
    }
    guard let (continuation, hook) = taken else { return }
    hook?()
    continuation?.resume(with: result)
  }
}
