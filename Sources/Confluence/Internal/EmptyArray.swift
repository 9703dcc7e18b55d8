/// An empty array of `Element`s, formed without naming the array's type to the runtime.
///
/// Every empty array, whatever its element type, holds the same statically allocated empty
/// storage: that is what `[]` makes. But where the compiler did not specialise the code
/// (a debug build of an app, a generic helper in another module), `[]` for an element type
/// built from a generic parameter (`[Output?]`) looks that type up in the runtime's cache
/// (about 330 instructions) and calls `Array._allocateUninitialized(_:)`, to make that same
/// empty array. Here the empty storage is taken from an array of a concrete type and
/// reinterpreted: an array is one reference whatever its elements, so the cast checks
/// nothing. Only where `Element` is not concrete: specialised, `[]` costs nothing, and the
/// cast a retain and a release of the empty storage.
@inlinable
@inline(__always)
internal func emptyArray<Element>() -> [Element] {
  if _isConcrete(Element.self) { return [] }
  return unsafeBitCast([Never](), to: [Element].self)
}

/// ``emptyArray()`` for an array of optionals (`[Wrapped?]`), which asks whether `Wrapped`
/// is concrete rather than `Wrapped?`: where the code is not specialised, naming
/// `Optional<Wrapped>` to ask looked it up in the runtime's cache (about 330 instructions),
/// and `Wrapped`'s metadata is already at hand.
@inlinable
@inline(__always)
internal func emptyArrayOfOptionals<Wrapped>() -> [Wrapped?] {
  if _isConcrete(Wrapped.self) { return [] }
  return unsafeBitCast([Never](), to: [Wrapped?].self)
}
