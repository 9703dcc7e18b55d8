/// Which of a `CurrentValueSubject`'s subscribers accepted a value while another thread (or
/// nobody yet) owned delivery to them: the indices, in the send's snapshot of the list, of
/// the subscribers the sender must claim and deliver to (`SubjectState.SendPlan.reserved`).
///
/// The first 64 indices are bits of one word, so a send to up to 64 subscribers allocates
/// nothing; later ones are listed in ascending order.
@usableFromInline
internal struct SubjectReservations {
  @usableFromInline
  internal var firstSixtyFour: UInt64 = 0

  @usableFromInline
  internal var beyondSixtyFour: [Int] = []

  @inlinable
  internal init() {}

  /// Whether no subscriber accepted the value for this sender.
  @inlinable
  internal var isEmpty: Bool {
    firstSixtyFour == 0 && beyondSixtyFour.isEmpty
  }

  /// Adds `index`; indices are added in ascending order.
  @inlinable
  internal mutating func insert(_ index: Int) {
    if index < 64 {
      firstSixtyFour |= 1 &<< UInt64(index)
    } else {
      beyondSixtyFour.append(index)
    }
  }

  /// Calls `body` with each index, in ascending order.
  @inlinable
  internal func forEach(_ body: (Int) -> Void) {
    var bits = firstSixtyFour
    while bits != 0 {
      body(bits.trailingZeroBitCount)
      bits &= bits &- 1
    }
    for index in beyondSixtyFour {
      body(index)
    }
  }
}
