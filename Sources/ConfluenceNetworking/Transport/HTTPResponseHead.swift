import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A response's status line and headers, parsed from the bytes up to the empty line.
struct HTTPResponseHead: Sendable {
  /// The most bytes a head may have: beyond it the server is not speaking HTTP to us.
  static let maximumLength = 64 * 1024

  var version: String
  var status: Int
  /// Header fields, names as the server wrote them; repeated fields joined with ", ".
  var fields: [String: String]

  /// The value of a header field, its name compared case-insensitively.
  func field(_ name: String) -> String? {
    for (key, value) in fields where key.caseInsensitiveCompare(name) == .orderedSame { return value }
    return nil
  }

  /// Finds the end of a head in `bytes`: the index just past the empty line (CRLF CRLF, or
  /// LF LF from a lax server), or `nil` if it has not arrived.
  static func endOfHead(in bytes: [UInt8]) -> Int? {
    var index = 0
    var lineStartsAt = 0
    while index < bytes.count {
      if bytes[index] == 0x0A {
        let lineLength = index - lineStartsAt
        if lineLength == 0 || (lineLength == 1 && bytes[lineStartsAt] == 0x0D) { return index + 1 }
        lineStartsAt = index + 1
      }
      index += 1
    }
    return nil
  }

  /// Parses a head (the bytes up to and including its empty line).
  init(parsing bytes: ArraySlice<UInt8>) throws(HTTPStreamError) {
    // Split the bytes, not the characters: in a String "\r\n" is one Character.
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
      String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let statusLine = lines.first else { throw .malformedResponse("an empty response head") }
    let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]), (100...999).contains(status)
    else { throw .malformedResponse("the status line \(statusLine.debugDescription)") }
    version = String(parts[0])
    self.status = status
    fields = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else {
        throw .malformedResponse("the header line \(line.debugDescription)")
      }
      let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
      let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      if let existing = fields[name] {
        fields[name] = existing + ", " + value
      } else {
        fields[name] = value
      }
    }
  }

  /// How the body that follows is framed, for a request made with `method`.
  func framing(method: String) throws(HTTPStreamError) -> HTTPBodyDecoder.Framing {
    if method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304 { return .none }
    if let encoding = field("Transfer-Encoding"), encoding.lowercased().contains("chunked") { return .chunked }
    if let length = field("Content-Length") {
      guard let count = Int(length.trimmingCharacters(in: .whitespaces)), count >= 0 else {
        throw .malformedResponse("the Content-Length \(length.debugDescription)")
      }
      return .length(count)
    }
    return .untilClose
  }

  /// The response as Foundation describes it.
  func response(for url: URL) -> HTTPURLResponse? {
    HTTPURLResponse(url: url, statusCode: status, httpVersion: version, headerFields: fields)
  }
}
