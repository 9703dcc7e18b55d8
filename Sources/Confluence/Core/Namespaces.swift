/// A namespace for types that serve as publishers.
///
/// The operators of ``Publisher`` return types declared in this namespace, such as
/// `Publishers.Map` or `Publishers.Filter`. Each one is a value that describes a stage of a
/// pipeline; nothing happens until a subscriber attaches.
public enum Publishers {}

/// A namespace for types that serve as subscribers.
///
/// ``Subscribers/Sink`` and ``Subscribers/Assign`` are the two ready-made subscribers;
/// ``Subscribers/Demand`` and ``Subscribers/Completion`` describe the messages that flow
/// between subscribers and publishers.
public enum Subscribers {}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}
