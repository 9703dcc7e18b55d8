import Foundation

/// Any JSON value, kept as the API sent it so the server answers with the same fields.
enum JSONValue: Codable, Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      self = .null
    } else if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let i = try? c.decode(Int.self) {
      self = .int(i)
    } else if let d = try? c.decode(Double.self) {
      self = .double(d)
    } else if let s = try? c.decode(String.self) {
      self = .string(s)
    } else if let a = try? c.decode([JSONValue].self) {
      self = .array(a)
    } else {
      self = .object(try c.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    switch self {
    case .null: try c.encodeNil()
    case .bool(let b): try c.encode(b)
    case .int(let i): try c.encode(i)
    case .double(let d): try c.encode(d)
    case .string(let s): try c.encode(s)
    case .array(let a): try c.encode(a)
    case .object(let o): try c.encode(o)
    }
  }

  subscript(key: String) -> JSONValue? {
    get { if case .object(let o) = self { return o[key] } else { return nil } }
    set {
      guard case .object(var o) = self else { return }
      o[key] = newValue
      self = .object(o)
    }
  }

  var int: Int? { if case .int(let i) = self { return i } else { return nil } }
  var string: String? { if case .string(let s) = self { return s } else { return nil } }
  var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

  /// The compact JSON text, keys sorted, slashes unescaped.
  func encoded() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array((try? encoder.encode(self)) ?? Data("null".utf8))
  }
}
