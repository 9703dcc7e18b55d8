import Foundation
import NewsCLI
import XCTest

final class TerminalTextTests: XCTestCase {
  func test_sanitize_removesCSISequences() {
    XCTAssertEqual(TerminalText.sanitize("a\u{1B}[2J\u{1B}[31;1mb\u{1B}[0m"), "ab")
  }

  func test_sanitize_removesOSCTitleAndHyperlinks_terminatedByBELOrST() {
    XCTAssertEqual(TerminalText.sanitize("x\u{1B}]0;pwned\u{07}y"), "xy")
    XCTAssertEqual(TerminalText.sanitize("\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\"), "link")
  }

  func test_sanitize_removesEightBitControls() {
    XCTAssertEqual(TerminalText.sanitize("a\u{9B}31mb\u{9D}0;t\u{9C}c\u{85}d"), "abcd")
  }

  func test_sanitize_removesDCSAndTwoByteEscapes() {
    XCTAssertEqual(TerminalText.sanitize("a\u{1B}P1$r\u{1B}\\b\u{1B}cc\u{1B}(Bd"), "abcd")
  }

  func test_sanitize_removesC0ControlsAndBidiOverrides() {
    XCTAssertEqual(TerminalText.sanitize("a\u{0}\u{7}\u{8}b\u{202E}c\u{2066}d\u{7F}"), "abcd")
  }

  func test_sanitize_turnsLineBreaksIntoSpaces_unlessKept() {
    XCTAssertEqual(TerminalText.sanitize("a\nb\tc\rd"), "a b c d")
    XCTAssertEqual(TerminalText.sanitize("a\nb\tc", keepingNewlines: true), "a\nb    c")
  }

  func test_sanitize_unterminatedSequence_dropsTheRest() {
    XCTAssertEqual(TerminalText.sanitize("ok\u{1B}]0;never ends"), "ok")
    XCTAssertEqual(TerminalText.sanitize("ok\u{1B}"), "ok")
  }

  func test_sanitize_keepsUnicodeText() {
    XCTAssertEqual(TerminalText.sanitize("Ünïcødé — 日本語 🚀"), "Ünïcødé — 日本語 🚀")
  }

  func test_width_countsWideCharactersTwice() {
    XCTAssertEqual(TerminalText.width("abc"), 3)
    XCTAssertEqual(TerminalText.width("日本"), 4)
    XCTAssertEqual(TerminalText.width("e\u{301}"), 1)
  }

  func test_truncate_addsEllipsis() {
    XCTAssertEqual(TerminalText.truncate("abcdefgh", columns: 5), "abcd…")
    XCTAssertEqual(TerminalText.truncate("abc", columns: 5), "abc")
  }

  func test_age_readsLikeHackerNews() {
    let now = Date(timeIntervalSince1970: 1_000_000_000)
    func age(_ seconds: TimeInterval) -> String { Age.describe(now.addingTimeInterval(-seconds), now: now) }
    XCTAssertEqual(age(10), "just now")
    XCTAssertEqual(age(-100), "just now")
    XCTAssertEqual(age(60), "1 minute ago")
    XCTAssertEqual(age(59 * 60), "59 minutes ago")
    XCTAssertEqual(age(3 * 3600), "3 hours ago")
    XCTAssertEqual(age(86_400), "1 day ago")
    XCTAssertEqual(age(40 * 86_400), "1 month ago")
    XCTAssertEqual(age(800 * 86_400), "2 years ago")
  }

  func test_domain_dropsWWW_andIgnoresTextPosts() {
    XCTAssertEqual(Domain.of("https://www.example.com/a?b"), "example.com")
    XCTAssertEqual(Domain.of("http://blog.chromium.org/x"), "blog.chromium.org")
    XCTAssertNil(Domain.of(nil))
    XCTAssertNil(Domain.of("not a url"))
  }

  func test_style_colorsOnlyWhenAllowed() {
    XCTAssertEqual(Style.plain.bold("x"), "x")
    XCTAssertEqual(Style(enabled: true).bold("x"), "\u{1B}[1mx\u{1B}[22m")
    XCTAssertFalse(Style.colorAllowed(environment: ["NO_COLOR": "1"]))
    XCTAssertTrue(Style.colorAllowed(environment: ["NO_COLOR": ""]))
    XCTAssertFalse(Style.colorAllowed(environment: ["TERM": "dumb"]))
    XCTAssertTrue(Style.colorAllowed(environment: ["TERM": "xterm-256color"]))
  }
}

final class HTMLTextTests: XCTestCase {
  func test_entities_decodeNamedDecimalAndHex() {
    XCTAssertEqual(Entities.decode("a &amp; b &lt;c&gt; &#39;d&#x27; &#x2F; &quot;"), "a & b <c> 'd' / \"")
    XCTAssertEqual(Entities.decode("AT&T &bogus; &#xZZ;"), "AT&T &bogus; &#xZZ;")
  }

  func test_paragraphs_areSeparatedByAnEmptyLine() {
    let text = HTMLText("Aw shucks, guys.<p>Tell you what, I&#x27;ll make a deal.")
    XCTAssertEqual(text.lines(width: 80, style: .plain), ["Aw shucks, guys.", "", "Tell you what, I'll make a deal."])
  }

  func test_wrapping_breaksAtSpaces() {
    let text = HTMLText("one two three four five six")
    XCTAssertEqual(text.lines(width: 10, style: .plain), ["one two", "three four", "five six"])
  }

  func test_italics_andLinks() {
    let text = HTMLText(
      #"I <i>really</i> mean <a href="https:&#x2F;&#x2F;example.com&#x2F;a" rel="nofollow">this page</a>."#)
    XCTAssertEqual(text.lines(width: 80, style: .plain), ["I really mean this page <https://example.com/a>."])
    XCTAssertEqual(
      text.lines(width: 80, style: Style(enabled: true)),
      [
        "I \u{1B}[3mreally\u{1B}[23m mean \u{1B}[34m\u{1B}[4mthis\u{1B}[24m\u{1B}[39m \u{1B}[34m\u{1B}[4mpage\u{1B}[24m\u{1B}[39m \u{1B}[34m\u{1B}[4m<https://example.com/a>\u{1B}[24m\u{1B}[39m."
      ])
  }

  func test_link_whoseTextIsTheAddress_isShownOnce() {
    let text = HTMLText(
      #"<a href="https:&#x2F;&#x2F;news.ycombinator.com&#x2F;item?id=1">https:&#x2F;&#x2F;news.ycombinator.com&#x2F;item?id=1</a>"#
    )
    XCTAssertEqual(text.plainText, "https://news.ycombinator.com/item?id=1")
    XCTAssertEqual(text.lines(width: 80, style: .plain), ["https://news.ycombinator.com/item?id=1"])
  }

  func test_preCode_keepsLinesAndIndentation() {
    let text = HTMLText("Try:<p><pre><code>  if x &gt; 1 {\n    print(x)\n  }\n</code></pre>Done.")
    XCTAssertEqual(
      text.lines(width: 80, style: .plain), ["Try:", "", "    if x > 1 {", "      print(x)", "    }", "", "Done."])
  }

  func test_escapeSequencesSpelledAsEntities_areRemoved() {
    let text = HTMLText("red &#27;[31mtext&#x1b;]0;title&#7; here")
    XCTAssertEqual(text.plainText, "red text here")
    XCTAssertFalse(text.plainText.unicodeScalars.contains { $0.value == 0x1B })
  }

  func test_rawEscapeInText_isRemoved() {
    XCTAssertEqual(HTMLText("a\u{1B}[2Jb").plainText, "ab")
  }
}
