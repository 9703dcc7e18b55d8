/// Checks a condition that a caller of the API must meet, and traps with `message` when the
/// caller did not.
///
/// `precondition(_:_:file:line:)` prints its message only where the module that calls it is
/// compiled unoptimised, and this package's library modules are compiled optimised in every
/// configuration (Package.swift). The traps for misuse that Apple's Combine traps on (negative
/// demand, a negative count, …) and the checks of the library's own invariants go through this
/// function instead, so that what was wrong is printed in every build. The message is made only
/// when the check fails.
@inlinable
@inline(__always)
package func confluencePrecondition(
  _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
  if _slowPath(!condition) { confluencePreconditionFailure(message(), file: file, line: line) }
}

/// Traps with `message`, printed in every build (see ``confluencePrecondition(_:_:file:line:)``).
@usableFromInline
@inline(never)
package func confluencePreconditionFailure(
  _ message: String, file: StaticString = #fileID, line: UInt = #line
) -> Never {
  fatalError(message, file: file, line: line)
}
