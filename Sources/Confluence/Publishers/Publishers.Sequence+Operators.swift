// Apple's specialised operators on `Publishers.Sequence` for the operators that exist so
// far: they transform the whole sequence at once, eagerly, and return another
// `Publishers.Sequence` of an array. Other operators add their overloads beside their own
// files.

extension Publishers.Sequence {
  /// Transforms every element of the sequence with a provided closure, now, and returns a
  /// publisher of the transformed array.
  ///
  /// Unlike ``Publisher/map(_:)``, the closure runs over the whole sequence immediately,
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
    Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
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
    Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
  }
}
