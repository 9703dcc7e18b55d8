import Foundation

/// Reads the `text/event-stream` format into events, exactly as the WHATWG HTML standard's
/// `EventSource` interprets an event stream, from bytes that arrive in chunks of any size.
///
/// Hand it each chunk with ``append(_:)`` and take what it has found with ``next()`` until
/// that returns `nil`; at the end of a stream call ``endOfStream()``. The rules are the
/// standard's:
/// - the stream is UTF-8 (invalid bytes become U+FFFD) and a byte order mark at its start
///   is skipped;
/// - lines end with CRLF, LF or CR, also when a chunk ends between the CR and the LF;
/// - a line that starts with `:` is a comment (keep-alives are sent this way) and is ignored;
/// - `field: value` (one space after the colon dropped), or a line with no colon (a field
///   named by the whole line with an empty value);
/// - `data` appends its value and a newline to the event's data; `event` sets its type;
///   `id` sets the last event ID unless its value contains U+0000 (an empty `id` clears it),
///   and the ID persists into later events; `retry` with a value of ASCII digits only sets the
///   reconnection time in milliseconds (reported as ``Output/retry(_:)``); other fields are
///   ignored;
/// - an empty line dispatches the event: the last event ID takes the buffered value (even
///   when there is no data), and an event with data is delivered, its data's last newline
///   removed, its type `"message"` unless one was given;
/// - at the end of the stream an event that no empty line ended is discarded.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for output in try parser.parse(Data("event: put\ndata: {\"a\":1}\n\n: keep-alive\n\n".utf8)) {
///   print(output)   // event(ServerSentEvent(type: put, data: "{\"a\":1}"))
/// }
/// ```
///
/// Memory: it holds one chunk, the start of one line and one event's data, each bounded by
/// `maximumEventLength` (beyond it ``next()`` throws ``HTTPStreamError/lineTooLong(maximumLength:)``
/// or ``HTTPStreamError/eventTooLarge(maximumLength:)``).
public struct ServerSentEventParser: Sendable {
  /// What the parser finds in a stream.
  public enum Output: Hashable, Sendable {
    /// An event, dispatched by the empty line that ended it.
    case event(ServerSentEvent)
    /// A `retry` field: the server's reconnection time, in milliseconds.
    case retry(Int)
  }

  /// The last event ID the stream has set (by an `id` field of an event that was
  /// dispatched), or the one the parser was created with.
  public private(set) var lastEventID: String

  /// The most bytes one line or one event's data may have.
  public let maximumEventLength: Int

  private var scanner: LineScanner
  private var event = PendingEvent()
  /// Up to three bytes at the start of a stream, held until they show whether they are a
  /// byte order mark.
  private var streamStart: [UInt8]? = []

  /// Creates a parser for a stream that starts now.
  ///
  /// - Parameters:
  ///   - lastEventID: The last event ID to start from: the ID a new stream resumes after
  ///     (events keep it until the stream sets another).
  ///   - maximumEventLength: The most bytes one line, and one event's data, may have.
  public init(lastEventID: String = "", maximumEventLength: Int = 1 << 20) {
    self.lastEventID = lastEventID
    self.maximumEventLength = maximumEventLength
    scanner = LineScanner(terminators: .anyNewline, maximumLength: maximumEventLength)
    event = PendingEvent(lastEventIDBuffer: lastEventID)
  }

  /// Hands the parser the next bytes of the stream. Take everything ``next()`` finds in the
  /// previous ones first.
  ///
  /// - Parameter chunk: The bytes, as they arrived.
  public mutating func append(_ chunk: Data) {
    guard var start = streamStart else {
      scanner.append(chunk)
      return
    }
    // The stream's first bytes: skip a byte order mark (EF BB BF), however it is split.
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    var index = chunk.startIndex
    while start.count < 3, index < chunk.endIndex {
      start.append(chunk[index])
      index += 1
      if start != Array(bom.prefix(start.count)) { break }
    }
    if start == bom {
      streamStart = nil
      scanner.append(chunk[index...])
    } else if start == Array(bom.prefix(start.count)), index == chunk.endIndex {
      streamStart = start  // so far a prefix of the mark: wait for more
    } else {
      streamStart = nil
      scanner.append(Data(start) + chunk[index...])
    }
  }

  /// Returns the next event or `retry` in the bytes handed in so far, or `nil` when they hold
  /// no more (hand in the next chunk then).
  ///
  /// - Throws: ``HTTPStreamError/lineTooLong(maximumLength:)`` or
  ///   ``HTTPStreamError/eventTooLarge(maximumLength:)`` beyond `maximumEventLength`.
  public mutating func next() throws(HTTPStreamError) -> Output? {
    var event = self.event
    defer { self.event = event }
    let limit = maximumEventLength
    while true {
      guard let step = try scanner.nextLine({ line throws(HTTPStreamError) in try event.process(line, limit: limit) })
      else { return nil }
      switch step {
      case .none:
        continue
      case .retry(let milliseconds):
        return .retry(milliseconds)
      case .dispatch:
        lastEventID = event.lastEventIDBuffer
        if let dispatched = event.dispatch(lastEventID: lastEventID) { return .event(dispatched) }
      }
    }
  }

  /// Ends the stream: an event that no empty line ended is discarded, and the next bytes
  /// handed in start a new stream (with a byte order mark of its own, perhaps). The last
  /// event ID stays: a reconnection resumes after it.
  public mutating func endOfStream() {
    scanner.reset()
    event = PendingEvent(lastEventIDBuffer: lastEventID)
    streamStart = []
  }

  /// Parses a whole chunk: hands it in and returns everything it completes.
  ///
  /// ```swift
  /// var parser = ServerSentEventParser()
  /// let outputs = try parser.parse(Data("data: 1\n\n".utf8))   // [.event(ServerSentEvent(data: "1"))]
  /// ```
  ///
  /// - Parameter chunk: The next bytes of the stream.
  /// - Returns: The events and `retry` values the bytes complete, in order.
  /// - Throws: As ``next()``.
  public mutating func parse(_ chunk: Data) throws(HTTPStreamError) -> [Output] {
    append(chunk)
    var outputs: [Output] = []
    while let output = try next() { outputs.append(output) }
    return outputs
  }
}

/// The fields of the event being read: the standard's data, event type and last event ID
/// buffers.
struct PendingEvent: Sendable {
  enum Step {
    case none
    case retry(Int)
    case dispatch
  }

  var data: [UInt8] = []
  var type: [UInt8] = []
  var lastEventIDBuffer = ""

  init(lastEventIDBuffer: String = "") {
    self.lastEventIDBuffer = lastEventIDBuffer
  }

  /// Interprets one line.
  mutating func process(_ line: UnsafeRawBufferPointer, limit: Int) throws(HTTPStreamError) -> Step {
    if line.isEmpty { return .dispatch }
    if line[0] == UInt8(ascii: ":") { return .none }
    let field: UnsafeRawBufferPointer
    var value: UnsafeRawBufferPointer
    if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
      field = UnsafeRawBufferPointer(rebasing: line[..<colon])
      value = UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])
      if value.first == UInt8(ascii: " ") { value = UnsafeRawBufferPointer(rebasing: value[1...]) }
    } else {
      field = line
      value = UnsafeRawBufferPointer(start: nil, count: 0)
    }
    switch field.count {
    case 4 where field.elementsEqual("data".utf8):
      guard data.count + value.count + 1 <= limit + 1 else { throw .eventTooLarge(maximumLength: limit) }
      data.append(contentsOf: value)
      data.append(0x0A)
    case 5 where field.elementsEqual("event".utf8):
      type = Array(value)
    case 2 where field.elementsEqual("id".utf8):
      if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
    case 5 where field.elementsEqual("retry".utf8):
      guard !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return .none }
      // Digits beyond what an Int holds are a reconnection time no one waits for: the largest.
      var milliseconds = 0
      for digit in value {
        let (times10, overflow1) = milliseconds.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - 0x30))
        if overflow1 || overflow2 {
          milliseconds = Int.max
          break
        }
        milliseconds = sum
      }
      return .retry(milliseconds)
    default:
      break
    }
    return .none
  }

  /// The empty line: returns the event if it has data, and empties the data and type.
  mutating func dispatch(lastEventID: String) -> ServerSentEvent? {
    defer {
      data.removeAll(keepingCapacity: data.capacity <= 4096)
      type.removeAll()
    }
    guard !data.isEmpty else { return nil }
    data.removeLast()  // the newline the last data line appended
    let typeName = type.isEmpty ? "message" : String(decoding: type, as: UTF8.self)
    return ServerSentEvent(type: typeName, data: String(decoding: data, as: UTF8.self), id: lastEventID)
  }
}
