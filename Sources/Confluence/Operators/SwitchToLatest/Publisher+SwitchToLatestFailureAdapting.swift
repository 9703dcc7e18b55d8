extension Publisher where Output: Publisher, Failure == Never {
  /// Republishes elements sent by the most recently received publisher, retyping this
  /// never-failing publisher of publishers to the inner publishers' failure type.
  ///
  /// Back-pressure: see ``Publishers/SwitchToLatest``.
  @inlinable
  public consuming func switchToLatest()
    -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>>
  {
    Publishers.SwitchToLatest(upstream: setFailureType(to: Output.Failure.self))
  }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
  /// Republishes elements sent by the most recently received publisher, where neither
  /// this publisher nor the inner ones can fail.
  ///
  /// Back-pressure: see ``Publishers/SwitchToLatest``.
  @inlinable
  public consuming func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
  /// Republishes elements sent by the most recently received publisher, retyping the
  /// never-failing inner publishers to this publisher's failure type.
  ///
  /// Back-pressure: see ``Publishers/SwitchToLatest``.
  @inlinable
  public consuming func switchToLatest()
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    >
  {
    Publishers.SwitchToLatest(upstream: map { $0.setFailureType(to: Failure.self) })
  }
}
