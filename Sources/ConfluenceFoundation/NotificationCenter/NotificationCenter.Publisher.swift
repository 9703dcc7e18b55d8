import Confluence
import Foundation

extension NotificationCenter {
  /// A publisher that emits elements when broadcasting notifications.
  ///
  /// Make one with ``FoundationEssentials/NotificationCenter/publisher(for:object:)``. Each subscriber
  /// adds its own observer to the center when it subscribes, and removes it when it cancels
  /// (or its subscription is released).
  ///
  /// ```swift
  /// let cancellable = NotificationCenter.default
  ///   .publisher(for: .NSCalendarDayChanged)
  ///   .sink { notification in print("a new day: \(notification.name.rawValue)") }
  /// ```
  ///
  /// Back-pressure: a notification is delivered only against outstanding demand; one
  /// posted while the subscriber has none is dropped for it (nothing is buffered, so a
  /// busy center cannot grow memory). Notifications posted from several threads at once
  /// reach the subscriber one at a time, in the order they were accepted.
  public struct Publisher: Confluence.Publisher, Equatable {
    /// The kind of values published by this publisher.
    public typealias Output = Notification

    /// The kind of errors this publisher might publish: it never fails.
    public typealias Failure = Never

    /// The notification center this publisher uses as a source.
    public let center: NotificationCenter

    /// The name of notifications published by this publisher.
    public let name: Notification.Name

    /// The object posting the named notification, or `nil` for any object.
    public let object: AnyObject?

    /// Creates a publisher that emits events when broadcasting notifications.
    ///
    /// - Parameters:
    ///   - center: The notification center to publish notifications for.
    ///   - name: The name of the notification to publish.
    ///   - object: The object posting the named notification. If `nil`, the publisher
    ///     emits elements for any object producing a notification with the given name.
    public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
      self.center = center
      self.name = name
      self.object = object
    }

    /// Attaches `subscriber`: adds an observer to the center for it.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let subscription = NotificationSubscription(downstream: AnySubscriber(subscriber))
      subscription.observe(center: center, name: name, object: object)
      subscriber.receive(subscription: subscription)
    }

    /// Two publishers are equal when they observe the same center, name and object.
    public static func == (lhs: Publisher, rhs: Publisher) -> Bool {
      lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
  }

  /// Returns a publisher that emits events when broadcasting notifications.
  ///
  /// ```swift
  /// let cancellable = NotificationCenter.default
  ///   .publisher(for: Notification.Name("refresh"), object: nil)
  ///   .map(\.userInfo)
  ///   .sink { print($0 as Any) }
  /// NotificationCenter.default.post(name: Notification.Name("refresh"), object: nil, userInfo: ["page": 1])
  /// ```
  ///
  /// - Parameters:
  ///   - name: The name of the notification to publish.
  ///   - object: The object posting the named notification. If `nil`, the publisher emits
  ///     elements for any object producing a notification with the given name.
  /// - Returns: A publisher that emits events when broadcasting notifications.
  public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
    NotificationCenter.Publisher(center: self, name: name, object: object)
  }
}
