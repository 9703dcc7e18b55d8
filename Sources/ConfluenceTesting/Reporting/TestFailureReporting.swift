import XCTest

#if canImport(Testing)
  import Testing
#endif

/// Where a check was written, in the form each test framework points at: Swift Testing
/// wants the file ID and column as well as the path and line XCTest uses.
internal struct CheckLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}

/// Fails the running test with `message`, at `location`, through whichever framework runs it.
///
/// Inside a Swift Testing test (`Test.current` is set on the test's task and the tasks it
/// starts) the failure is an `Issue` recorded at `location`, so `withKnownIssue` can expect
/// it; otherwise it is an `XCTFail` at `location`'s path and line, as it always was.
///
/// The kit imports both frameworks from the toolchain rather than depending on a package
/// that bridges them: a user of Confluence resolves no extra dependency, and the kit links
/// only what a test bundle links anyway.
internal func reportTestFailure(_ message: String, at location: CheckLocation) {
  #if canImport(Testing)
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: String(describing: location.fileID),
          filePath: String(describing: location.filePath),
          line: Int(location.line),
          column: Int(max(location.column, 1))
        )
      )
      return
    }
  #endif
  XCTFail(message, file: location.filePath, line: location.line)
}

/// Whether the calling code runs inside a Swift Testing test.
internal var isRunningSwiftTestingTest: Bool {
  #if canImport(Testing)
    return Test.current != nil
  #else
    return false
  #endif
}
