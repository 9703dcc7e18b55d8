/// A subscription that is not a class instance, held by an operator as a class (see
/// ``HeldSubscription``): requests and cancels go to it, and it answers with its
/// identifier, description and mirror, so code handed the holder sees the subscription.
///
/// ```swift
/// struct Token: Subscription { … }          // a value type conforming
/// let held = holdSubscription(Token())      // a SubscriptionHolder
/// held.combineIdentifier                    // the token's
/// ```
@usableFromInline
internal final class SubscriptionHolder: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal let base: Subscription

  @usableFromInline
  internal init(_ base: Subscription) {
    self.base = base
  }

  @usableFromInline
  internal func request(_ demand: Subscribers.Demand) {
    base.request(demand)
  }

  @usableFromInline
  internal func cancel() {
    base.cancel()
  }

  @usableFromInline
  internal var combineIdentifier: CombineIdentifier { base.combineIdentifier }

  @usableFromInline
  internal var description: String { String(describing: base) }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(reflecting: base) }

  @usableFromInline
  internal var playgroundDescription: Any {
    (base as? CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? base
  }
}
