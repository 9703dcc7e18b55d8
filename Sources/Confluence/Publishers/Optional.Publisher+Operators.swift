// Apple's specialised operators on `Optional.Publisher` for the operators that exist so
// far: they run the closure at once and return another `Optional.Publisher`. Other
// operators add their overloads beside their own files.

extension Optional.Publisher {
  /// Transforms the output, if any, with a provided closure, now, and returns a publisher
  /// of the result.
  ///
  /// ```swift
  /// let text: Optional<String>.Publisher = Optional(2).publisher.map { "\($0)" }
  /// let cancellable = text.sink { print($0) }   // prints "2"
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameter transform: A closure that takes the output as its parameter and returns
  ///   a new element. It is not called if there is no output.
  /// - Returns: An `Optional.Publisher` of the transformed output, or of `nil`.
  @inlinable
  public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map(transform))
  }

  /// Tests the output, if any, with a provided closure, now, and returns a publisher of
  /// the output if it passes, or one that finishes without a value.
  ///
  /// ```swift
  /// let odd: Optional<Int>.Publisher = Optional(3).publisher.filter { !$0.isMultiple(of: 2) }
  /// let cancellable = odd.sink { print($0) }   // prints 3
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameter isIncluded: A closure that takes the output and returns whether to
  ///   publish it. It is not called if there is no output.
  /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
  @inlinable
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
  }
}
