import Combine
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal's input as publishers: the keys read from standard input and the sizes
/// after each `SIGWINCH`.
///
/// The raw sources are wrapped in subjects, the way the book wraps a delegate API: a
/// thread blocks in `read(2)` on standard input and sends each decoded key to ``keys``;
/// a dispatch signal source for `SIGWINCH` sends the new size to ``sizes``. When standard
/// input ends, ``keys`` finishes.
final class TerminalInput {
  private let keySubject = PassthroughSubject<Key, Never>()
  private let sizeSubject = PassthroughSubject<TerminalSize, Never>()
  private let resizeSource: any DispatchSourceSignal

  /// The keys pressed, decoded; sent from the reading thread.
  var keys: AnyPublisher<Key, Never> { keySubject.eraseToAnyPublisher() }
  /// The terminal's size after each resize; sent on `queue`.
  var sizes: AnyPublisher<TerminalSize, Never> { sizeSubject.eraseToAnyPublisher() }

  /// Starts reading standard input and watching resizes (delivered on `queue`).
  init(queue: DispatchQueue) {
    let keys = keySubject
    let sizes = sizeSubject
    signal(SIGWINCH, SIG_IGN)
    resizeSource = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
    resizeSource.setEventHandler {
      if let size = TerminalInput.size() { sizes.send(size) }
    }
    resizeSource.resume()
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 256)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        for key in KeyDecoder.keys(in: Array(buffer[0..<count])) { keys.send(key) }
      }
      keys.send(completion: .finished)
    }
    thread.name = "news.keys"
    thread.start()
  }

  /// The size of the terminal on standard output, or `nil` if it is not a terminal.
  static func size() -> TerminalSize? {
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
    return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
  }
}
