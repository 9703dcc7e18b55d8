/// Turns the bytes a terminal sends in raw mode into keys.
///
/// A terminal sends one key's bytes in one burst, so each chunk that `read(2)` returns is
/// decoded on its own: a chunk that is only `ESC` is the Escape key; `ESC [` or `ESC O`
/// starts a cursor or editing key. Text that is not valid UTF-8 is dropped.
enum KeyDecoder {
  /// The keys in `bytes`, one chunk of a raw-mode terminal's input.
  static func keys(in bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      switch byte {
      case 0x1B:
        let (key, length) = escapeSequence(bytes, at: i)
        keys.append(key)
        i += length
      case 0x0D, 0x0A:
        keys.append(.enter)
        i += 1
      case 0x7F, 0x08:
        keys.append(.backspace)
        i += 1
      case 0x09:
        keys.append(.tab)
        i += 1
      case 0x01...0x1A:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        i += 1
      case 0x00...0x1F:
        keys.append(.unknown)
        i += 1
      default:
        // One UTF-8 character: its length comes from the lead byte.
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        let end = min(bytes.count, i + length)
        if let text = String(validating: bytes[i..<end], as: UTF8.self), let character = text.first {
          keys.append(.character(character))
        }
        i = end
      }
    }
    return keys
  }

  /// The key that starts with the `ESC` at `start`, and how many bytes it takes.
  private static func escapeSequence(_ bytes: [UInt8], at start: Int) -> (Key, Int) {
    guard start + 1 < bytes.count else { return (.escape, 1) }
    let introducer = bytes[start + 1]
    guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
      // ESC then another key: Alt with that key, read as Escape followed by the key.
      return (.escape, 1)
    }
    // Parameters (digits and ';'), then one final byte.
    var j = start + 2
    while j < bytes.count, (0x30...0x3F).contains(bytes[j]) { j += 1 }
    guard j < bytes.count else { return (.unknown, bytes.count - start) }
    let parameters = String(decoding: bytes[(start + 2)..<j], as: UTF8.self)
    let length = j + 1 - start
    switch bytes[j] {
    case UInt8(ascii: "A"): return (.up, length)
    case UInt8(ascii: "B"): return (.down, length)
    case UInt8(ascii: "C"): return (.right, length)
    case UInt8(ascii: "D"): return (.left, length)
    case UInt8(ascii: "H"): return (.home, length)
    case UInt8(ascii: "F"): return (.end, length)
    case UInt8(ascii: "Z"): return (.backTab, length)
    case UInt8(ascii: "~"):
      switch parameters.split(separator: ";").first {
      case "1", "7": return (.home, length)
      case "4", "8": return (.end, length)
      case "5": return (.pageUp, length)
      case "6": return (.pageDown, length)
      default: return (.unknown, length)
      }
    default:
      return (.unknown, length)
    }
  }
}
