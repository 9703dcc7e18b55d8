import Confluence

extension Publisher {
  /// Shares one subscription to this publisher among all subscribers, and replays the
  /// latest `bufferSize` values (and the completion) to each subscriber that arrives later.
  ///
  /// `share(replay:)` is `multicast { ReplaySubject(bufferSize: bufferSize) }.autoconnect()`:
  /// the first subscriber connects (subscribes to this publisher once); later subscribers
  /// get the replayed values, then the live ones. When every subscriber has cancelled, the
  /// upstream subscription is cancelled too; a subscriber arriving after that reconnects,
  /// and still sees the values replayed from before. Once this publisher has completed,
  /// new subscribers get the replay and the completion without a new upstream
  /// subscription. Keep the returned publisher (a class) and subscribe to it, as with
  /// `share()`.
  ///
  /// ```swift
  /// let story = api.story(id: 1000).share(replay: 1)
  /// let first = story.sink(receiveCompletion: { _ in }, receiveValue: { print("first", $0) })
  /// // … once the request has completed:
  /// let second = story.sink(receiveCompletion: { _ in }, receiveValue: { print("second", $0) })
  /// // second gets the story at once, without a second request
  /// ```
  ///
  /// Back-pressure: requests `.unlimited` from this publisher; each subscriber's demand is
  /// honoured separately, and values a subscriber has not asked for yet wait for it, at
  /// most `bufferSize` of them (the oldest are dropped). See ``ReplaySubject``.
  ///
  /// - Parameter bufferSize: How many of the latest values to replay; zero or more.
  /// - Returns: A shared, replaying publisher.
  @inlinable
  public consuming func share(
    replay bufferSize: Int
  ) -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>> {
    multicast { ReplaySubject(bufferSize: bufferSize) }.autoconnect()
  }
}
