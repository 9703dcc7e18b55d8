// "Combine in Action", chapter 11, "Timers": a repeating action on RunLoop, Timer's
// publisher, and a repeating action on a DispatchQueue feeding a subject.
//
// The book fires every second; these fire every 0.2 s so the program ends quickly, and
// each timer stops after its third event (the book's first example cancels after three
// seconds, which races with the third event; counting does not).
import Combine
import Foundation

let interval = 0.2

// MARK: Using RunLoop

print("-- RunLoop.schedule(after:interval:tolerance:)")
let runLoop = RunLoop.main
var runLoopFires = 0
var runLoopTimer: (any Cancellable)?
runLoopTimer = runLoop.schedule(
  after: runLoop.now,
  interval: .seconds(interval),
  tolerance: .milliseconds(100)
) {
  print("Timer fired")
  runLoopFires += 1
  if runLoopFires == 3 {
    runLoopTimer?.cancel()
    startTimerPublisher()
  }
}

// MARK: Using the Timer class

var timerSubscription: AnyCancellable?

@MainActor func startTimerPublisher() {
  print("-- Timer.publish(every:on:in:).autoconnect()")
  timerSubscription =
    Timer
    .publish(every: interval, on: .main, in: .common)
    .autoconnect()
    .scan(0) { counter, _ in counter + 1 }
    .sink { counter in
      print("Counter is \(counter)")
      if counter == 3 {
        timerSubscription?.cancel()
        startDispatchQueueTimer()
      }
    }
}

// MARK: Using DispatchQueue

var queueTimer: (any Cancellable)?
var queueSubscription: AnyCancellable?

@MainActor func startDispatchQueueTimer() {
  print("-- DispatchQueue.schedule(after:interval:) feeding a subject")
  let queue = DispatchQueue.main
  let source = PassthroughSubject<Int, Never>()
  var counter = 0
  queueTimer = queue.schedule(
    after: queue.now,
    interval: .seconds(interval)
  ) {
    source.send(counter)
    counter += 1
  }
  queueSubscription = source.sink {
    print("Timer emitted \($0)")
    if $0 == 2 {
      queueTimer?.cancel()
      exit(0)
    }
  }
}

// RunLoop.main and DispatchQueue.main run their work only while the main thread runs the
// main run loop. An app's main thread does so all its life (UIApplicationMain,
// NSApplicationMain), and so does a playground; a command-line program must do it itself,
// or it ends here and no timer ever fires. (On Linux, running RunLoop.main also runs what
// is queued on DispatchQueue.main.) The last timer ends the program with exit(0).
RunLoop.main.run()
