/// One key a person pressed, decoded from the bytes a terminal sends in raw mode.
enum Key: Hashable, Sendable {
  /// A printable character (letters, digits, punctuation, space, any Unicode text).
  case character(Character)
  case up, down, left, right
  case pageUp, pageDown, home, end
  case enter, backspace, tab, backTab, escape
  /// Ctrl with a letter, as its lower-case letter (Ctrl-C is `.control("c")`).
  case control(Character)
  /// A sequence the reader does not know, kept so that it is ignored rather than typed.
  case unknown
}
