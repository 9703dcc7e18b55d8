// Apple's specialised mapping, filtering and sequence operators on `Publishers.Sequence`:
// they apply the operator to the whole sequence at once (eagerly, or lazily through the
// standard library's `DropFirstSequence`, `DropWhileSequence`, `PrefixSequence`) and
// return another sequence publisher, or an `Optional.Publisher` for one element.

extension Publishers.Sequence {
  /// Publishes every running result of combining the elements with a closure, computed
  /// now.
  ///
  /// ```swift
  /// let totals: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.scan(0, +)   // 1, 3, 6
  /// ```
  ///
  /// - Complexity: O(*n*) time and space, paid when this method is called.
  ///
  /// - Parameters:
  ///   - initialResult: The value the first element is combined with.
  ///   - nextPartialResult: A closure that combines the previous result and an element.
  /// - Returns: A publisher of the running results.
  @inlinable
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Publishers.Sequence<[T], Failure> {
    var accumulator = initialResult
    var results: [T] = []
    results.reserveCapacity(sequence.underestimatedCount)
    for element in sequence {
      accumulator = nextPartialResult(accumulator, element)
      results.append(accumulator)
    }
    return Publishers.Sequence<[T], Failure>(sequence: results)
  }

  /// Changes the declared failure type of the sequence publisher.
  ///
  /// ```swift
  /// let typed: Publishers.Sequence<[Int], URLError> = [1, 2].publisher.setFailureType(to: URLError.self)
  /// ```
  ///
  /// - Parameter error: The `Failure` type presented by the new publisher.
  /// - Returns: A publisher of the same sequence.
  @inlinable
  public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
    Publishers.Sequence<Elements, E>(sequence: sequence)
  }

  /// Replaces the `nil` elements with `output`, now. Like Apple's, the elements stay
  /// optionals (`[Output]`).
  ///
  /// ```swift
  /// let filled: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
  /// // Optional(1), Optional(0), Optional(3)
  /// ```
  ///
  /// - Complexity: O(*n*) time and space, paid when this method is called.
  ///
  /// - Parameter output: The element to use in place of `nil`.
  /// - Returns: A publisher of the elements, `nil`s replaced.
  @inlinable
  public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
    Publishers.Sequence<[Output], Failure>(sequence: sequence.map { .some($0 ?? output) })
  }

  /// Publishes the non-`nil` results of a closure over every element, computed now.
  ///
  /// ```swift
  /// let numbers: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }
  /// ```
  ///
  /// - Complexity: O(*n*) time and space, paid when this method is called.
  ///
  /// - Parameter transform: A closure that returns an optional for each element.
  /// - Returns: A publisher of the non-`nil` results.
  @inlinable
  public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
  }

  /// Omits the first `count` elements (lazily, through `DropFirstSequence`).
  ///
  /// ```swift
  /// let rest = [1, 2, 3].publisher.dropFirst()   // 2, 3
  /// ```
  ///
  /// - Parameter count: The number of elements to omit; must not be negative.
  /// - Returns: A publisher of the remaining elements.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
    Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
  }

  /// Omits elements while `predicate` holds (lazily, through `DropWhileSequence`).
  ///
  /// ```swift
  /// let rest = [1, 2, 5, 1].publisher.drop { $0 < 3 }   // 5, 1
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to drop the element.
  /// - Returns: A publisher of the elements from the first one `predicate` rejects.
  @inlinable
  public func drop(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
    Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
  }

  /// Publishes at most the first `maxLength` elements (lazily, through `PrefixSequence`).
  ///
  /// ```swift
  /// let firstTwo = (0...10).publisher.prefix(2)   // 0, 1
  /// ```
  ///
  /// - Parameter maxLength: The maximum number of elements to publish; must not be
  ///   negative.
  /// - Returns: A publisher of the first elements.
  @inlinable
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
  }

  /// Publishes the elements up to the first one `predicate` rejects, computed now.
  ///
  /// ```swift
  /// let small: Publishers.Sequence<[Int], Never> = [1, 2, 5, 1].publisher.prefix { $0 < 3 }   // 1, 2
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to keep publishing.
  /// - Returns: A publisher of the leading elements that satisfy `predicate`.
  @inlinable
  public func prefix(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<[Elements.Element], Failure> {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Publishes the elements without consecutive repeats, computed now.
  ///
  /// ```swift
  /// let distinct: Publishers.Sequence<[Int], Never> = [1, 1, 2, 1].publisher.removeDuplicates()   // 1, 2, 1
  /// ```
  ///
  /// - Complexity: O(*n*) time and space, paid when this method is called.
  ///
  /// - Returns: A publisher of the elements that differ from the one before them.
  @inlinable
  public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
    var kept: [Output] = []
    var previous: Output?
    for element in sequence {
      if let previous, previous == element { continue }
      previous = element
      kept.append(element)
    }
    return Publishers.Sequence<[Output], Failure>(sequence: kept)
  }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  /// Publishes the element at `index`, if the collection has one.
  ///
  /// ```swift
  /// let third: Optional<Int>.Publisher = [10, 20, 30].publisher.output(at: 2)   // 30
  /// ```
  ///
  /// - Parameter index: The index of the element to publish.
  /// - Returns: An `Optional.Publisher` of the element, or of `nil`.
  @inlinable
  public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// Publishes the elements in `range`, computed now.
  ///
  /// As in Apple's Combine, this is `Array(sequence[range])`: the range must lie within
  /// the collection's indices (a range outside them traps, like subscripting does).
  ///
  /// ```swift
  /// let middle: Publishers.Sequence<[Int], Never> = [1, 2, 3, 4].publisher.output(in: 1..<3)   // 2, 3
  /// ```
  ///
  /// - Complexity: O(*k*) time and space, where *k* is the length of the range (plus the
  ///   cost of measuring it, O(*k*) for a collection that is not random-access).
  ///
  /// - Parameter range: The range of indices to publish.
  /// - Returns: A publisher of the elements in the range.
  @inlinable
  public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
    Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
  }
}
