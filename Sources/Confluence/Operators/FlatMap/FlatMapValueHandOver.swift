/// What `flatMap`'s state decided for a value of an inner publisher
/// (``FlatMapState/takesInnerValue(_:from:)``).
///
/// A type generic over nothing, in place of an optional tuple of downstream and a flag: in
/// generic code the compiler did not specialise, such a tuple's metadata is looked up at
/// run time, and the compiler asks the runtime for it in its abstract state and then uses its
/// value witnesses. A tuple type made for the first time on two threads at once has none yet
/// on the thread that did not make it: `flatMap`'s first values, arriving from two threads
/// at once, crashed there (1 run in about 400 of the stress tests).
@usableFromInline
@frozen
internal enum FlatMapValueHandOver {
  /// Buffered for want of demand or of delivery, or dropped once everything ended.
  case held
  /// To be delivered by the caller, who now owns delivery.
  case deliver
  /// To be delivered by the caller, who now owns delivery; the inner publisher, asked one
  /// value at a time, is to be asked for one more (in the demand its `receive(_:)` returns).
  case deliverAndAskAgain
}
