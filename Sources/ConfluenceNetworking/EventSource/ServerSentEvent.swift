/// One event of a server-sent event stream, as the `EventSource` standard dispatches it.
///
/// The fields are the standard's: the event's type (the `event` field, `"message"` when the
/// stream gave none), its data (the `data` lines joined with `"\n"`, the last newline
/// removed) and the last event ID in force when it was dispatched (the most recent `id`
/// field, which persists from event to event until the stream sets another).
///
/// ```swift
/// // event: put
/// // data: {"path":"/","data":[9129911,9129199]}
/// //
/// let event = ServerSentEvent(type: "put", data: #"{"path":"/","data":[9129911,9129199]}"#)
/// if event.type == "put" { apply(try JSONDecoder().decode(Put.self, from: Data(event.data.utf8))) }
/// ```
public struct ServerSentEvent: Hashable, Sendable, CustomStringConvertible {
  /// The event's type: the stream's `event` field, or `"message"` when it had none.
  public var type: String

  /// The event's data: its `data` fields' values joined with `"\n"`.
  public var data: String

  /// The last event ID when the event was dispatched (empty when the stream has set none):
  /// what a reconnection sends as `Last-Event-ID`.
  public var id: String

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - type: The event's type; `"message"` unless the stream named another.
  ///   - data: The event's data.
  ///   - id: The last event ID in force when it was dispatched.
  public init(type: String = "message", data: String, id: String = "") {
    self.type = type
    self.data = data
    self.id = id
  }

  public var description: String {
    "ServerSentEvent(type: \(type), data: \(data.debugDescription)\(id.isEmpty ? "" : ", id: \(id)"))"
  }
}
