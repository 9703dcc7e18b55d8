/// An upstream subscription as operators keep it: a class reference with its conformance.
///
/// `Subscription` is not class-bound, so Swift handles an `any Subscription` (and every enum
/// or array holding one) by address, through the runtime's value witnesses: each copy, move
/// and destroy of a ``SubscriptionStatus`` was a call into the existential's witness table,
/// and each destroy of one already taken (`.terminal`) two calls that found nothing to do.
/// Nearly every subscription is a class instance, so the status keeps it as a class-bound
/// existential instead: two words, retained and released directly, an enum around it
/// tested inline. ``holdSubscription(_:)`` converts; the few subscriptions that are not
/// classes (a structure conforming to `Subscription`) go into a ``SubscriptionHolder``.
///
/// ```swift
/// var status = SubscriptionStatus.awaitingSubscription
/// _ = status.accept(subscription)      // holds it, class-bound
/// status.take().cancelSubscription()   // one release, no witness call
/// ```
@usableFromInline
package typealias HeldSubscription = any Subscription & AnyObject

/// `subscription` as a ``HeldSubscription``: the same object if its type is a class (the
/// reference retained, with the conformance read from the existential), otherwise a
/// ``SubscriptionHolder`` around it.
///
/// The existential is read by its layout: the dynamic type's metadata and the conformance
/// in its fourth and fifth words, a class instance's reference in its first (a class
/// reference always fits the inline buffer). A class's metadata kind is 0, or an
/// Objective-C `isa` pointer (above 0x7FF) where Swift interoperates with Objective-C; every
/// other kind (structures 0x200, enums 0x201, …) is a value, boxed.
@inlinable
@inline(__always)
package func holdSubscription(_ subscription: Subscription) -> HeldSubscription {
  // Read in place: `type(of:)` asks the runtime for the dynamic type (about 50 instructions).
  // Unprotected: three words are read through the pointer, nothing written.
  _withUnprotectedUnsafePointer(to: subscription) { container in
    let words = UnsafeRawPointer(container)
    let metadata = words.load(fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer.self)
    let kind = metadata.load(as: UInt.self)
    guard kind == 0 || kind > 0x7FF else { return boxSubscription(subscription) }
    let conformance = words.load(fromByteOffset: 4 * MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer.self)
    // A +1 reference, which the class-bound existential takes over.
    let object = words.load(as: AnyObject.self)
    return unsafeBitCast((object, conformance), to: HeldSubscription.self)
  }
}

/// `subscription`, of a type known to the caller, as a ``HeldSubscription``. Where the
/// optimiser knows the type is a class (specialised code), the reference and the
/// conformance are taken as they are, without an existential built to be read back;
/// otherwise as ``holdSubscription(_:)``.
@inlinable
@inline(__always)
package func holdSubscription<Known: Subscription>(known subscription: Known) -> HeldSubscription {
  guard _canBeClass(Known.self) == 1 else { return holdSubscription(subscription as Subscription) }
  let type = unsafeBitCast(
    Known.self as any Subscription.Type, to: (metadata: UnsafeRawPointer, conformance: UnsafeRawPointer).self)
  return unsafeBitCast((unsafeBitCast(subscription, to: AnyObject.self), type.conformance), to: HeldSubscription.self)
}

/// A subscription that is not a class instance, boxed (out of line: rare).
@usableFromInline
@inline(never)
internal func boxSubscription(_ subscription: Subscription) -> HeldSubscription {
  SubscriptionHolder(subscription)
}
