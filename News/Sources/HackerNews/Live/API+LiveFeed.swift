import Combine
import Foundation

extension API {
  /// A feed that stays current: its first `limit` ids and their items, streamed as the
  /// server changes them, for as long as the subscription lasts.
  ///
  /// The Hacker News API is Firebase's REST API, which streams a path's changes as
  /// server-sent events when asked with `Accept: text/event-stream`. This publisher opens
  /// one stream for the feed (`/v0/topstories.json`, …) and one for each listed item
  /// (`/v0/item/ID.json`), and publishes ``LiveFeedEvent/listed(_:)`` whenever the first
  /// `limit` ids change and ``LiveFeedEvent/item(_:)`` whenever an item does. Streams of
  /// ids that leave the list are closed; new ids get their own. No request is repeated
  /// while the streams are up: a dropped stream reconnects (the server's `retry`, with
  /// `Last-Event-ID`) and ``LiveFeedEvent/connection(_:)`` tells when streams are down and
  /// when all are live again.
  ///
  /// When the server does not stream — it answers with another content type than
  /// `text/event-stream`, or with a 4xx status — the publisher sends
  /// ``LiveFeedEvent/Connection/notStreaming(_:)`` and finishes, so the caller can poll
  /// instead. It does the same where the streams are not available (where `Combine` is
  /// Apple's, whose pipelines ConfluenceNetworking's publishers cannot join).
  ///
  /// ```swift
  /// let cancellable = api.liveFeed(.top, limit: 30, scheduler: DispatchQueue.main)
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: none. The events are what the server changed, delivered as they come;
  /// subscribe with unlimited demand (`sink`), since a value sent without demand is lost.
  ///
  /// - Parameters:
  ///   - feed: The feed.
  ///   - limit: How many of its first ids to follow.
  ///   - scheduler: A serial scheduler: every event is delivered on it, and the streams'
  ///     reconnection waits are measured on it.
  /// - Returns: A publisher of the feed's changes that never fails.
  public func liveFeed<S: Scheduler>(_ feed: Feed, limit: Int, scheduler: S) -> AnyPublisher<LiveFeedEvent, Never> {
    #if canImport(ConfluenceNetworking)
      let api = self
      return Deferred { () -> AnyPublisher<LiveFeedEvent, Never> in
        let streams = LiveFeedStreams(api: api, feed: feed, limit: limit, scheduler: scheduler)
        return StartingAfterSubscription(
          upstream: streams.events.handleEvents(receiveCancel: { streams.stop() }), start: { streams.start() }
        )
        .eraseToAnyPublisher()
      }
      .eraseToAnyPublisher()
    #else
      return Just(.connection(.notStreaming("event streams need Confluence's Combine"))).eraseToAnyPublisher()
    #endif
  }
}
