// Apple's specialised operators on `Publishers.Sequence` for the operators that exist so
// far: they transform the whole sequence at once, eagerly, and return another
// `Publishers.Sequence` of an array. Other operators add their overloads beside their own
// files.

extension Publishers.Sequence {
  /// Transforms every element of the sequence with a provided closure, now, and returns a
  /// publisher of the transformed array.
  ///
  /// Unlike ``Publisher/map(_:)->Publishers.Map<Self,T>``, the closure runs over the whole sequence immediately,
  /// like `Sequence.map`, and the result is still a sequence publisher:
  ///
  /// ```swift
  /// let words: Publishers.Sequence<[String], Never> = [1, 2, 3].publisher.map { "#\($0)" }
  /// let cancellable = words.sink { print($0) }   // #1, #2, #3
  /// ```
  ///
  /// Back-pressure: as ``Publishers/Sequence``.
  ///
  /// - Complexity: O(*n*) time and space, where *n* is the length of the sequence, paid
  ///   when this method is called.
  ///
  /// - Parameter transform: A closure that takes one element as its parameter and returns
  ///   a new element.
  /// - Returns: A publisher of the transformed elements.
  @inlinable
  public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: EagerArray.map(sequence, transform))
  }

  /// Keeps the elements of the sequence that match a provided closure, now, and returns a
  /// publisher of the kept elements.
  ///
  /// ```swift
  /// let evens: Publishers.Sequence<[Int], Never> = (1...6).publisher.filter { $0.isMultiple(of: 2) }
  /// let cancellable = evens.sink { print($0) }   // 2, 4, 6
  /// ```
  ///
  /// Back-pressure: as ``Publishers/Sequence``.
  ///
  /// - Complexity: O(*n*) time, where *n* is the length of the sequence, paid when this
  ///   method is called.
  ///
  /// - Parameter isIncluded: A closure that takes one element and returns whether to
  ///   keep it.
  /// - Returns: A publisher of the elements that satisfy the closure.
  @inlinable
  public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
    Publishers.Sequence<[Output], Failure>(sequence: EagerArray.filter(sequence, isIncluded))
  }
}

// Apple's `prepend` and `append` on a sequence publisher whose sequence can grow: they
// build the combined collection now and return another `Publishers.Sequence` of the same
// collection type, instead of a `Publishers.Concatenate`.
extension Publishers.Sequence where Elements: RangeReplaceableCollection {
  /// Prefixes the published elements with the given values, now.
  ///
  /// ```swift
  /// let numbers: Publishers.Sequence<[Int], Never> = [3, 4].publisher.prepend(1, 2)
  /// let cancellable = numbers.sink { print($0) }   // 1, 2, 3, 4
  /// ```
  ///
  /// Back-pressure: as ``Publishers/Sequence``.
  ///
  /// - Complexity: O(*n* + *m*), where *n* is the length of this sequence and *m* the
  ///   number of values, paid when this method is called.
  ///
  /// - Parameter elements: The values to publish before this publisher's elements.
  /// - Returns: A publisher of the combined collection.
  @inlinable
  public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
    prepend(elements)
  }

  /// Prefixes the published elements with the elements of a sequence, now.
  ///
  /// The result is a new collection with room for both parts reserved up front.
  ///
  /// ```swift
  /// let numbers: Publishers.Sequence<[Int], Never> = [3, 4].publisher.prepend(1...2)
  /// ```
  ///
  /// Back-pressure: as ``Publishers/Sequence``.
  ///
  /// - Complexity: O(*n* + *m*), paid when this method is called.
  ///
  /// - Parameter elements: The elements to publish before this publisher's elements.
  /// - Returns: A publisher of the combined collection.
  @inlinable
  public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where Elements.Element == S.Element {
    var combined = Elements()
    combined.reserveCapacity(sequence.count + elements.underestimatedCount)
    combined.append(contentsOf: elements)
    combined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: combined)
  }

  /// Prefixes the published elements with those of another sequence publisher, now.
  ///
  /// ```swift
  /// let numbers = [3, 4].publisher.prepend([1, 2].publisher)   // 1, 2, 3, 4
  /// ```
  ///
  /// Back-pressure: as ``Publishers/Sequence``.
  ///
  /// - Complexity: O(*n* + *m*), paid when this method is called.
  ///
  /// - Parameter publisher: The publisher whose elements come first.
  /// - Returns: A publisher of the combined collection: `publisher`'s collection with this
  ///   one's elements appended.
  @inlinable
  public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
    var combined = publisher.sequence
    combined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: combined)
  }

  /// Appends the given values to the published elements, now.
  ///
  /// ```swift
  /// let numbers: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3, 4)
  /// let cancellable = numbers.sink { print($0) }   // 1, 2, 3, 4
  /// ```
  ///
  /// Back-pressure: as ``Publishers/Sequence``.
  ///
  /// - Complexity: O(*m*) amortised, where *m* is the number of values (a copy of this
  ///   sequence's collection is made only if it is shared), paid when this method is called.
  ///
  /// - Parameter elements: The values to publish after this publisher's elements.
  /// - Returns: A publisher of the combined collection.
  @inlinable
  public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
    append(elements)
  }

  /// Appends the elements of a sequence to the published elements, now.
  ///
  /// ```swift
  /// let numbers: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3...4)
  /// ```
  ///
  /// Back-pressure: as ``Publishers/Sequence``.
  ///
  /// - Complexity: O(*m*) amortised, paid when this method is called.
  ///
  /// - Parameter elements: The elements to publish after this publisher's elements.
  /// - Returns: A publisher of the combined collection.
  @inlinable
  public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where Elements.Element == S.Element {
    var combined = sequence
    combined.append(contentsOf: elements)
    return Publishers.Sequence<Elements, Failure>(sequence: combined)
  }

  /// Appends the elements of another sequence publisher, now.
  ///
  /// ```swift
  /// let numbers = [1, 2].publisher.append([3, 4].publisher)   // 1, 2, 3, 4
  /// ```
  ///
  /// Back-pressure: as ``Publishers/Sequence``.
  ///
  /// - Complexity: O(*m*) amortised, paid when this method is called.
  ///
  /// - Parameter publisher: The publisher whose elements come last.
  /// - Returns: A publisher of the combined collection.
  @inlinable
  public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
    append(publisher.sequence)
  }
}
