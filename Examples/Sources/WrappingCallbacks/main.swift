// "Using Combine", "Creating a repeating publisher by wrapping a delegate based API": an
// object that receives callbacks forwards them into a PassthroughSubject and exposes the
// subject as a publisher.
//
// The book wraps CoreLocation's delegate; the callback API here is a DispatchSource that
// calls back each time a file descriptor (the read end of a pipe) becomes readable. The
// wrapper turns the bytes into lines, sends each line to its subject, and finishes the
// subject at end of file.
import Combine
import Foundation

final class LineReaderProxy {
  private let source: any DispatchSourceRead
  private let linePublisher = PassthroughSubject<String, Never>()
  private var pending = Data()

  /// The lines read, as a publisher; it finishes at end of file.
  let publisher: AnyPublisher<String, Never>

  init(fileDescriptor: Int32, queue: DispatchQueue) {
    publisher = linePublisher.eraseToAnyPublisher()
    _ = fcntl(fileDescriptor, F_SETFL, fcntl(fileDescriptor, F_GETFL) | O_NONBLOCK)
    source = DispatchSource.makeReadSource(fileDescriptor: fileDescriptor, queue: queue)
    source.setEventHandler { [unowned self] in self.readAvailableBytes(fileDescriptor) }
  }

  /// Starts delivering callbacks (the book's `enable()` starts CoreLocation's updates).
  func enable() { source.resume() }

  /// Stops them.
  func disable() { source.cancel() }

  // The callback: read everything there is (the descriptor does not block), send each
  // complete line, and finish at end of file.
  private func readAvailableBytes(_ fileDescriptor: Int32) {
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(fileDescriptor, &buffer, buffer.count)
      if count < 0 { return }  // nothing more for now (EAGAIN): wait for the next callback
      if count == 0 {
        disable()
        linePublisher.send(completion: .finished)
        return
      }
      pending.append(contentsOf: buffer[0..<count])
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        linePublisher.send(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
        pending.removeSubrange(pending.startIndex...newline)
      }
    }
  }
}

let pipe = Pipe()
let proxy = LineReaderProxy(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, queue: .main)

let subscription = proxy.publisher
  .filter { !$0.isEmpty }
  .map { line in line.uppercased() }
  .sink(
    receiveCompletion: { completion in
      print("completion: \(completion)")
      exit(0)
    },
    receiveValue: { line in
      print("line: \(line)")
    })
proxy.enable()

// Another thread writes three lines (the second in two pieces) and closes its end.
Thread.detachNewThread {
  let writer = pipe.fileHandleForWriting
  writer.write(Data("heading 12.5\nheading ".utf8))
  Thread.sleep(forTimeInterval: 0.05)
  writer.write(Data("13.0\n\nheading 14.25\n".utf8))
  try? writer.close()
}

// The read source calls back on DispatchQueue.main, which runs only while the main thread
// serves it: an app's main thread does so all its life; a command-line program parks its
// main thread in dispatchMain() (which never returns), or it ends here before any callback.
// The completion ends the program with exit(0).
dispatchMain()
