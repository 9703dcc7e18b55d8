/// A subscription's state machine kept in memory of its own, destroyed by a function formed
/// where the state's type is known.
///
/// A generic class that stores its state as a stored property of type `State` has it
/// destroyed by its `deinit`, which Swift never specialises: the `deinit` looks the state's
/// generic metadata up in the runtime's cache (about 450 instructions for a fan-in state) and
/// destroys it field by field through value witnesses, at every subscription's end. A
/// pipeline built and dropped per item paid that once per operator. This type names no
/// generic parameter, so a class that stores it needs no metadata to destroy it; the
/// initialiser, which runs in the caller's specialised code, forms the function that
/// destroys the state (capturing nothing there, so it costs no allocation), and the class's
/// `deinit` calls ``destroy()``.
///
/// ```swift
/// let storage = OutOfLineState(State())
/// storage.pointer(to: State.self).pointee.demand += 1   // under the class's lock
/// deinit { storage.destroy() }
/// ```
///
/// Not thread-safe by itself: the class that holds it guards the state as it guarded the
/// stored property (under its lock).
@usableFromInline
package struct OutOfLineState {
  @usableFromInline package let storage: UnsafeMutableRawPointer
  @usableFromInline package let destroyer: (UnsafeMutableRawPointer) -> Void

  /// Allocates memory for `initial` and moves it there.
  @inlinable
  package init<State>(_ initial: consuming State) {
    let typed = UnsafeMutablePointer<State>.allocate(capacity: 1)
    typed.initialize(to: initial)
    storage = UnsafeMutableRawPointer(typed)
    destroyer = { raw in
      let typed = raw.assumingMemoryBound(to: State.self)
      typed.deinitialize(count: 1)
      typed.deallocate()
    }
  }

  /// The state, as the type it was created with.
  @inlinable
  @inline(__always)
  package func pointer<State>(to type: State.Type) -> UnsafeMutablePointer<State> {
    storage.assumingMemoryBound(to: State.self)
  }

  /// Destroys the state and frees its memory; call once, from the owner's `deinit`.
  @inlinable
  package func destroy() {
    destroyer(storage)
  }
}
