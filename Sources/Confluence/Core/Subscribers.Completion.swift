extension Subscribers {
  /// A signal that a publisher doesn’t produce additional elements, either due to normal
  /// completion or an error.
  ///
  /// ```swift
  /// publisher.sink(receiveCompletion: { completion in
  ///   switch completion {
  ///   case .finished: print("done")
  ///   case .failure(let error): print("failed: \(error)")
  ///   }
  /// }, receiveValue: { _ in })
  /// ```
  @frozen
  public enum Completion<Failure: Error> {
    /// The publisher finished normally.
    case finished
    /// The publisher stopped publishing due to the indicated error.
    case failure(Failure)
  }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

/// The keys of an encoded completion: `success` (a Boolean) and, for a failure, `error`.
private enum CompletionCodingKeys: String, CodingKey {
  case success
  case error
}

extension Subscribers.Completion: Encodable where Failure: Encodable {
  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CompletionCodingKeys.self)
    switch self {
    case .finished:
      try container.encode(true, forKey: .success)
    case .failure(let error):
      try container.encode(false, forKey: .success)
      try container.encode(error, forKey: .error)
    }
  }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CompletionCodingKeys.self)
    if try container.decode(Bool.self, forKey: .success) {
      self = .finished
    } else {
      self = .failure(try container.decode(Failure.self, forKey: .error))
    }
  }
}

extension Subscribers.Completion {
  /// The same completion with its error, if any, passed through `transform`.
  @inlinable
  internal func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure>
  {
    switch self {
    case .finished: return .finished
    case .failure(let error): return .failure(transform(error))
    }
  }

  /// This completion with its failure erased to `any Error`.
  @inlinable
  internal var eraseError: Subscribers.Completion<Error> {
    mapError { $0 }
  }
}

extension Subscribers.Completion where Failure == Never {
  /// A completion of a publisher that cannot fail, retyped for any failure type.
  @inlinable
  internal func promoteFailure<NewFailure: Error>(to _: NewFailure.Type = NewFailure.self)
    -> Subscribers.Completion<NewFailure>
  {
    .finished
  }
}
