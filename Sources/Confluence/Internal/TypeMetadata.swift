/// Reads two facts about a generic struct's metadata where the compiler did not specialise
/// the code that asks: which generic type a type is an instance of, and its first generic
/// argument. ``KnownJust`` uses both to pick out `Just`; `AnyPublisher` and `SubjectBacking`
/// use the first to tell the publishers and subscribers they look for from the rest
/// without the runtime's casts. Both are part of the runtime's stable metadata layout
/// (`docs/ABI/TypeMetadata.rst` in the Swift repository): a struct's metadata is its kind
/// (`0x200`), then a pointer to its nominal type descriptor, then its generic arguments'
/// metadata in declaration order. Anything that is not a struct (a class, whose second word
/// is its superclass; an enum; a tuple; a function) answers `nil` and is never read further.
///
/// `TypeMetadataTests` checks both against types whose answers are known.
@usableFromInline
internal enum TypeMetadata {
  /// The runtime's kind for a struct's metadata (`MetadataKind::Struct`). (Computed: a
  /// stored `static let` would be read through a lazy initialiser's check.)
  @inlinable
  internal static var structKind: UInt { 0x200 }

  /// The nominal type descriptor of `type` if it is a struct, else `nil`: the same for every
  /// instance of one generic struct (`Just<Int>` and `Just<String>`), different for any two
  /// structs.
  @inlinable
  internal static func structDescriptor(of type: Any.Type) -> UnsafeRawPointer? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: UInt.self) == structKind else { return nil }
    return metadata.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self)
  }

  /// Whether `type` is an instance of the generic struct `model` is an instance of
  /// (`Just<String>` of `Just<Int>`'s); `false` for anything that is not a struct.
  @inlinable
  internal static func isInstance(_ type: Any.Type, ofStructOf model: Any.Type) -> Bool {
    guard let descriptor = structDescriptor(of: type) else { return false }
    return descriptor == structDescriptor(of: model)
  }

  /// Whether `type` is a struct, but not an instance of the generic struct `model` is an
  /// instance of: a publisher or subscriber that cannot be the one a cast would look for.
  @inlinable
  internal static func isStruct(_ type: Any.Type, otherThanInstancesOf model: Any.Type) -> Bool {
    guard let descriptor = structDescriptor(of: type) else { return false }
    return descriptor != structDescriptor(of: model)
  }

  /// The first generic argument of `type`, which must be an instance of a generic struct
  /// (``structDescriptor(of:)`` not `nil`, and a generic parameter declared).
  @inlinable
  internal static func firstGenericArgument(of type: Any.Type) -> Any.Type {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    return unsafeBitCast(
      metadata.load(fromByteOffset: 2 * MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self), to: Any.Type.self)
  }
}
