// Apple's specialised reducing, matching and sequence operators on `Publishers.Sequence`:
// they walk the sequence at once, eagerly, when the operator is applied, and return a
// `Result.Publisher`, an `Optional.Publisher`, a `Just` or an `Empty` of the answer, so
// code naming those types (`let n: Just<Int> = [1, 2].publisher.count()`) type-checks as
// with Apple's Combine.
//
// A sequence publisher never fails, so the `Result.Publisher`s are successes (or, for the
// throwing forms, the thrown error). The overloads that answer with an `Optional.Publisher`
// exist only where `Failure == Never`, as Apple declares them.

extension Publishers.Sequence {
  /// Whether every element satisfies `predicate`, now.
  ///
  /// Stops at the first element that fails the test, like `Sequence.allSatisfy`.
  ///
  /// ```swift
  /// let even: Result<Bool, Never>.Publisher = [2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }
  /// ```
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter predicate: A closure that tests one element.
  /// - Returns: A `Result.Publisher` of the answer.
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
  }

  /// Whether every element satisfies the throwing `predicate`, now.
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter predicate: A throwing closure that tests one element.
  /// - Returns: A `Result.Publisher` of the answer, or of the first thrown error.
  @inlinable
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
  }

  /// Collects every element into an array, now.
  ///
  /// ```swift
  /// let all: Result<[Int], Never>.Publisher = (1...3).publisher.collect()   // publishes [1, 2, 3]
  /// ```
  ///
  /// - Complexity: O(*n*) time and space, paid when this method is called.
  ///
  /// - Returns: A `Result.Publisher` of the array of elements.
  @inlinable
  public func collect() -> Result<[Output], Failure>.Publisher {
    Result<[Output], Failure>.Publisher(Array(sequence))
  }

  /// Whether any element satisfies `predicate`, now.
  ///
  /// ```swift
  /// let found: Result<Bool, Never>.Publisher = [1, 5, 9].publisher.contains { $0 > 4 }   // true
  /// ```
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter predicate: A closure that tests one element.
  /// - Returns: A `Result.Publisher` of the answer.
  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
  }

  /// Whether any element satisfies the throwing `predicate`, now.
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter predicate: A throwing closure that tests one element.
  /// - Returns: A `Result.Publisher` of the answer, or of the first thrown error.
  @inlinable
  public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
  }

  /// Ignores the elements: the result finishes without publishing anything.
  ///
  /// ```swift
  /// let done: Empty<Int, Never> = [1, 2].publisher.ignoreOutput()
  /// ```
  ///
  /// - Returns: An `Empty` publisher that completes immediately.
  @inlinable
  public func ignoreOutput() -> Empty<Output, Failure> {
    Empty()
  }

  /// Combines every element with `nextPartialResult`, starting from `initialResult`, now.
  ///
  /// ```swift
  /// let sum: Result<Int, Never>.Publisher = (1...4).publisher.reduce(0, +)   // publishes 10
  /// ```
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameters:
  ///   - initialResult: The value passed to the closure with the first element.
  ///   - nextPartialResult: A closure that combines the accumulated value and the next
  ///     element. (Apple declares it `@escaping`; it is not kept.)
  /// - Returns: A `Result.Publisher` of the accumulated value.
  @inlinable
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
  }

  /// Combines every element with the throwing `nextPartialResult`, starting from
  /// `initialResult`, now.
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameters:
  ///   - initialResult: The value passed to the closure with the first element.
  ///   - nextPartialResult: A throwing closure that combines the accumulated value and the
  ///     next element. (Apple declares it `@escaping`; it is not kept.)
  /// - Returns: A `Result.Publisher` of the accumulated value, or of the first thrown
  ///   error.
  @inlinable
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
  }
}

extension Publishers.Sequence where Failure == Never {
  /// The minimum element by `areInIncreasingOrder`, now.
  ///
  /// ```swift
  /// let shortest: Optional<String>.Publisher = ["ccc", "a", "bb"].publisher.min { $0.count < $1.count }
  /// ```
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument
  ///   orders before its second.
  /// - Returns: An `Optional.Publisher` of the minimum, or without a value for an empty
  ///   sequence.
  @inlinable
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
  }

  /// The maximum element by `areInIncreasingOrder`, now.
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument
  ///   orders before its second.
  /// - Returns: An `Optional.Publisher` of the maximum, or without a value for an empty
  ///   sequence.
  @inlinable
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
  }

  /// The first element that satisfies `predicate`, now.
  ///
  /// ```swift
  /// let firstBig: Optional<Int>.Publisher = [1, 7, 9].publisher.first { $0 > 5 }   // publishes 7
  /// ```
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter predicate: A closure that tests one element.
  /// - Returns: An `Optional.Publisher` of the first match, or without a value if none
  ///   matches.
  @inlinable
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.first(where: predicate))
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Whether the sequence contains `output`, now.
  ///
  /// ```swift
  /// let found: Result<Bool, Never>.Publisher = [1, 2, 3].publisher.contains(2)   // true
  /// ```
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter output: The element to look for.
  /// - Returns: A `Result.Publisher` of the answer.
  @inlinable
  public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(output))
  }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
  /// The minimum element, now.
  ///
  /// ```swift
  /// let lowest: Optional<Int>.Publisher = [1, -50, 246, 0].publisher.min()   // publishes -50
  /// ```
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Returns: An `Optional.Publisher` of the minimum, or without a value for an empty
  ///   sequence.
  @inlinable
  public func min() -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.min())
  }

  /// The maximum element, now.
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Returns: An `Optional.Publisher` of the maximum, or without a value for an empty
  ///   sequence.
  @inlinable
  public func max() -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.max())
  }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  /// The first element, now.
  ///
  /// ```swift
  /// let head: Optional<String>.Publisher = ["A", "B", "C"].publisher.first()   // publishes "A"
  /// ```
  ///
  /// - Returns: An `Optional.Publisher` of the first element, or without a value for an
  ///   empty collection.
  @inlinable
  public func first() -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.first)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// Counts the elements, now.
  ///
  /// ```swift
  /// let count: Result<Int, TestError>.Publisher =
  ///   Publishers.Sequence<[Int], TestError>(sequence: [1, 2]).count()   // publishes 2
  /// ```
  ///
  /// - Complexity: O(1) for a `RandomAccessCollection`, else O(*n*), paid when this
  ///   method is called.
  ///
  /// - Returns: A `Result.Publisher` of the number of elements.
  @inlinable
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
  /// The last element, now.
  ///
  /// ```swift
  /// let tail: Optional<String>.Publisher = ["A", "B", "C"].publisher.last()   // publishes "C"
  /// ```
  ///
  /// - Returns: An `Optional.Publisher` of the last element, or without a value for an
  ///   empty collection.
  @inlinable
  public func last() -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.last)
  }

  /// The last element that satisfies `predicate`, searching from the end, now.
  ///
  /// - Complexity: O(*n*), paid when this method is called.
  ///
  /// - Parameter predicate: A closure that tests one element.
  /// - Returns: An `Optional.Publisher` of the last match, or without a value if none
  ///   matches.
  @inlinable
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.last(where: predicate))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
  /// Counts the elements, now.
  ///
  /// ```swift
  /// let count: Just<Int> = (0...10).publisher.count()   // publishes 11
  /// ```
  ///
  /// - Returns: A `Just` of the number of elements.
  @inlinable
  public func count() -> Just<Int> {
    Just<Int>(sequence.count)
  }
}
