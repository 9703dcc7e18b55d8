/// 64 bytes that keep the stored properties before them and after them on different cache
/// lines, so that one thread writing the ones does not slow another reading the others.
@usableFromInline
@frozen
internal struct CacheLinePadding {
  @usableFromInline internal let bytes: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

  @inlinable
  internal init() {}
}
