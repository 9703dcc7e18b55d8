/// Takes back the reference to a subscription that `erased` holds, without a retain or a
/// release: for an operator that moved its new subscription into the existential
/// `receive(subscription:)` takes, handed it downstream, and now moves it upstream
/// (`Publisher._subscribeUpstream(_:)`).
///
/// An operator's subscription ends up referenced twice: by its downstream, which stores the
/// subscription it is handed, and by its upstream, which stores it as its subscriber. The
/// reference the initialiser returned can become one of the two. Downstream cannot take it:
/// `receive(subscription:)` borrows its argument, and the caller must keep the subscription
/// alive while downstream runs (downstream may cancel and let go of it from there). The
/// upstream can, if the reference is not also spent on the existential: forming the
/// existential moves the reference into it, and copying the reference back out (or forming
/// the existential from a borrowed reference) costs a retain, destroying the existential a
/// release, two atomic instructions per stage of a pipeline built. Here the existential is
/// moved into a stack slot that is never destroyed, so that the reference it holds is the
/// one returned: a move from start to end.
///
/// ```swift
/// let reference = Unmanaged.passUnretained(subscription)
/// let erased: Subscription = consume subscription
/// reference._withUnsafeGuaranteedRef { downstream.receive(subscription: erased) }
/// upstream._subscribeUpstream(reclaimed(consume erased, reference))
/// ```
///
/// A function of its own rather than one taking the steps as closures: written with
/// closures (`withUnsafeTemporaryAllocation`'s among them), the optimiser kept a sink's
/// specialised `receive(subscription:)` from storing the subscription with one retain.
///
/// - Parameters:
///   - erased: The existential the caller moved its only reference to the subscription into.
///   - reference: The same subscription, not retained.
/// - Returns: The subscription, owned by the caller, who must consume it.
@inlinable
@inline(__always)
internal func reclaimed<HandedOver: AnyObject>(
  _ erased: consuming any Subscription, _ reference: Unmanaged<HandedOver>
) -> HandedOver {
  forget(erased)
  return reference.takeRetainedValue()
}

/// Ends `erased`'s lifetime without releasing the reference it holds: moves it into a stack
/// slot that is never deinitialised. For an existential whose reference the caller accounts
/// for itself: taken back (``reclaimed(_:_:)``), or formed from a reference another owner
/// holds (`Unmanaged.takeRetainedValue()` without a retain) to hand a subscriber a
/// subscription that owner keeps alive (`SubjectStorage.receive(subscriber:parent:)`).
@inlinable
@inline(__always)
internal func forget(_ erased: consuming any Subscription) {
  // Three words of inline buffer, the type's metadata and its witness table.
  var slot: (UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0)
  assert(MemoryLayout<any Subscription>.size <= MemoryLayout.size(ofValue: slot), "an existential fits the slot")
  moveSubscription(erased, into: &slot)
}

/// Moves `erased` into the memory `slot` points to, which ``forget(_:)`` never
/// deinitialises. (A pointer parameter rather than a closure over the slot's bytes: the
/// optimiser handled closures here worse, see ``reclaimed(_:_:)``.)
@inlinable
@inline(__always)
internal func moveSubscription(_ erased: consuming any Subscription, into slot: UnsafeMutableRawPointer) {
  slot.bindMemory(to: (any Subscription).self, capacity: 1).initialize(to: erased)
}

/// Ends `subscriber`'s lifetime without releasing the reference it holds, which a subject's
/// subscription adopted: moves it into a never-deinitialised stack slot of two words.
@inlinable
@inline(__always)
internal func forget<Subscriber>(adopted subscriber: consuming Subscriber) {
  var slot: (UInt, UInt) = (0, 0)
  assert(MemoryLayout<Subscriber>.size <= MemoryLayout.size(ofValue: slot), "the subscriber fits the slot")
  moveAdopted(subscriber, into: &slot)
}

@inlinable
@inline(__always)
internal func moveAdopted<Subscriber>(_ subscriber: consuming Subscriber, into slot: UnsafeMutableRawPointer) {
  slot.bindMemory(to: Subscriber.self, capacity: 1).initialize(to: subscriber)
}
