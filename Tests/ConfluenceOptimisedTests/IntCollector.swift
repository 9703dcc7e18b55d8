import Confluence

/// A subscriber class of the tests' own (so that the optimiser sees a pipeline end in a class
/// it knows nothing about): keeps what it receives and asks for `demandPerValue` more each
/// time. Closures may append to `values` too, for pipelines that end in `sink`.
final class IntCollector: Subscriber {
  typealias Input = Int
  typealias Failure = Never

  var values: [Int] = []
  private let demandPerValue: Subscribers.Demand

  init(demandPerValue: Subscribers.Demand = .none) {
    self.demandPerValue = demandPerValue
  }

  func receive(subscription: Subscription) { subscription.request(.unlimited) }

  func receive(_ input: Int) -> Subscribers.Demand {
    values.append(input)
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Never>) {}
}
