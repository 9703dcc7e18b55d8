/// How the library was compiled, as values rather than `#if`s, for conditions that combine
/// it with a fact known only where the code runs: a constant `true` in an `if` makes the
/// compiler warn that the other branch will never be executed (an error with warnings as
/// errors).
@usableFromInline
internal enum BuildConfiguration {
  /// Whether the library was compiled unoptimised (`CONFLUENCE_UNOPTIMISED=1`), where
  /// `unsafeDowncast` checks its cast (see `FanInJustEntry` and its siblings).
  @inlinable
  internal static var isUnoptimised: Bool {
    #if CONFLUENCE_UNOPTIMISED
      return true
    #else
      return false
    #endif
  }
}
