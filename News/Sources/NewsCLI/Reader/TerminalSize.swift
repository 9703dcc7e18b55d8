/// The size of the terminal, in character cells.
struct TerminalSize: Hashable, Sendable {
  var rows: Int
  var columns: Int
}
