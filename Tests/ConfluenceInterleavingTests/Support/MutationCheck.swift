import XCTest

/// Explores `model`, a protocol with a mutation applied, and fails unless exploration finds
/// a violation (one containing `expected`, when given): the check that shows a model can
/// fail at all. The violation and its trace are printed, for the record.
func checkCaught<M: InterleavingModel>(
  _ model: M, _ mutation: String, expected: String? = nil, file: StaticString = #filePath, line: UInt = #line
) {
  let result = explore(model)
  guard let failure = result.failure else {
    XCTFail("the mutation \(mutation) went unnoticed: \(result)", file: file, line: line)
    return
  }
  print("interleavings: \(M.self) with \(mutation): caught: \(failure.message) (\(result.states) states explored)")
  if let expected {
    XCTAssertTrue(
      failure.message.contains(expected), "caught, but as \"\(failure.message)\", not \"\(expected)\"", file: file,
      line: line)
  }
}
