/// Which of two upstreams an event came from, in two-upstream operators (zip,
/// combineLatest).
@usableFromInline
internal enum FanInSide {
  case a, b
}
