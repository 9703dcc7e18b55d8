import Foundation
import HackerNews

/// One JSON object per line, safe to print on a terminal.
public enum JSONLines {
  /// `item` as the API sends it, with extra fields (`rank`, `depth`, …) added.
  public static func line(_ item: Item, extra: [String: Int] = [:]) -> String {
    encode(Tagged(item: item, extra: extra))
  }

  /// An object for an id that failed or was missing.
  public static func line(id: Int, extra: [String: Int] = [:], error: String) -> String {
    encode(Failure(id: id, extra: extra, error: error))
  }

  private struct Tagged: Encodable {
    let item: Item
    let extra: [String: Int]
    func encode(to encoder: any Encoder) throws {
      try item.encode(to: encoder)
      var container = encoder.container(keyedBy: AnyKey.self)
      for (key, value) in extra { try container.encode(value, forKey: AnyKey(key)) }
    }
  }

  private struct Failure: Encodable {
    let id: Int
    let extra: [String: Int]
    let error: String
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(id, forKey: AnyKey("id"))
      try container.encode(error, forKey: AnyKey("error"))
      for (key, value) in extra { try container.encode(value, forKey: AnyKey(key)) }
    }
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  private static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return "{}\n" }
    return escapeTerminalControls(text) + "\n"
  }

  /// JSON escapes C0 controls itself; C1 controls, DEL and bidirectional overrides are
  /// valid raw in JSON strings but not harmless on a terminal, so they are escaped too.
  /// The data is unchanged for any JSON reader.
  static func escapeTerminalControls(_ json: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      switch scalar.value {
      case 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
        out.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
      default:
        out.append(scalar)
      }
    }
    return String(out)
  }
}
