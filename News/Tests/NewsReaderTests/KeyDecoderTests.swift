import XCTest

@testable import NewsCLI

/// The bytes a terminal sends in raw mode (as xterm and tmux send them), decoded.
final class KeyDecoderTests: XCTestCase {
  func keys(_ text: String) -> [Key] { KeyDecoder.keys(in: Array(text.utf8)) }

  func test_letters_digitsAndPunctuation_areCharacters() {
    XCTAssertEqual(
      keys("jk1/?"), [.character("j"), .character("k"), .character("1"), .character("/"), .character("?")])
  }

  func test_arrows_inBothCursorModes() {
    // Normal mode sends CSI (ESC [), application mode SS3 (ESC O).
    XCTAssertEqual(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D"), [.up, .down, .right, .left])
    XCTAssertEqual(keys("\u{1B}OA\u{1B}OB"), [.up, .down])
  }

  func test_editingKeys_withTildeSequences() {
    XCTAssertEqual(
      keys("\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[H\u{1B}[F"), [.pageUp, .pageDown, .home, .end, .home, .end])
    XCTAssertEqual(keys("\u{1B}[Z"), [.backTab])
  }

  func test_enterBackspaceTab_andControlKeys() {
    // Enter is CR in raw mode; Backspace is DEL (most terminals) or BS (Ctrl-H).
    XCTAssertEqual(keys("\r\u{7F}\u{08}\t\u{03}"), [.enter, .backspace, .backspace, .tab, .control("c")])
  }

  func test_aLoneEscape_isTheEscapeKey() {
    XCTAssertEqual(keys("\u{1B}"), [.escape])
    XCTAssertEqual(keys("\u{1B}x"), [.escape, .character("x")])
  }

  func test_utf8_isDecodedWhole_andAnUnknownSequenceIsOneKey() {
    XCTAssertEqual(keys("é日"), [.character("é"), .character("日")])
    XCTAssertEqual(keys("\u{1B}[15~j"), [.unknown, .character("j")])
  }
}
