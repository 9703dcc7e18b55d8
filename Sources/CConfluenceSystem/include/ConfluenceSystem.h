// What Confluence needs from the system that Swift cannot say: the current thread's
// identity in one instruction, a compiler-only fence, the kernel's process-wide memory
// barrier (membarrier(2)), used by Confluence's DeliveryGate and Lock
// (Sources/Confluence/Internal), the futex calls Lock sleeps and wakes with; and a global
// flag that inlined code in other modules reads with one load (DebugHook).

#ifndef CONFLUENCE_SYSTEM_H
#define CONFLUENCE_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#if !(defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__)))
#include <pthread.h>
#endif

#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define CONFLUENCE_HAS_SINGLE_THREADED_FLAG 1
#endif
#endif

/// A number that identifies the calling thread among the threads alive now, never 0 or 1:
/// the address of the thread's control block (x86-64: the self pointer at %fs:0;
/// AArch64: TPIDR_EL0), elsewhere `pthread_self()`. `volatile` so that the compiler never
/// reuses a value across a point where the code may have moved to another thread.
static inline __attribute__((always_inline)) uintptr_t confluence_thread_token(void) {
#if defined(__linux__) && defined(__x86_64__)
  uintptr_t token;
  __asm__ __volatile__("movq %%fs:0, %0" : "=r"(token));
  return token;
#elif defined(__linux__) && defined(__aarch64__)
  uintptr_t token;
  __asm__ __volatile__("mrs %0, tpidr_el0" : "=r"(token));
  return token;
#else
  return (uintptr_t)pthread_self();
#endif
}

/// Whether the process has only ever had one thread, as the C library knows it
/// (glibc 2.32 and later: `__libc_single_threaded`, which it clears before creating a second
/// thread and which only the thread that creates threads can see change). While it holds,
/// nothing can contend for a lock, and glibc's own mutexes skip their atomic instructions;
/// `Lock` does the same. Always false where the C library does not say (musl, Darwin).
static inline __attribute__((always_inline)) bool confluence_is_single_threaded(void) {
#if defined(CONFLUENCE_HAS_SINGLE_THREADED_FLAG)
  return __atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) != 0;
#else
  return false;
#endif
}

/// Keeps the compiler from moving memory accesses across this point; emits no instruction.
static inline __attribute__((always_inline)) void confluence_compiler_barrier(void) {
  __asm__ __volatile__("" ::: "memory");
}

/// Tells the processor that this thread is spinning (x86-64 `pause`, AArch64 `yield`).
static inline __attribute__((always_inline)) void confluence_spin_pause(void) {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/// Registers the process for `confluence_process_barrier()`; returns whether the kernel
/// offers it (Linux 4.14 and later, unless a seccomp filter forbids the call). Call
/// `confluence_process_barrier_available()` instead: it registers once.
bool confluence_process_barrier_register(void);

/// -1 until the first `confluence_process_barrier_available()`, then 1 or 0.
extern int confluence_process_barrier_state;

/// Whether `confluence_process_barrier()` works in this process; registers the process the
/// first time (racing first calls register twice, which the kernel allows). One load after.
static inline __attribute__((always_inline)) bool confluence_process_barrier_available(void) {
  int state = __atomic_load_n(&confluence_process_barrier_state, __ATOMIC_ACQUIRE);
  if (__builtin_expect(state < 0, 0)) {
    state = confluence_process_barrier_register() ? 1 : 0;
    __atomic_store_n(&confluence_process_barrier_state, state, __ATOMIC_RELEASE);
  }
  return state != 0;
}

/// The token `Lock` biases a new lock to (Sources/Confluence/Internal/Locking.swift): the
/// calling thread's `confluence_thread_token()` where the process-wide barrier works, else 0
/// (no bias). One load and no call, so that a lock's initialiser stays small enough to be
/// inlined: the process registers for the barrier when the library is loaded (a
/// constructor in ProcessBarrier.c), and a lock made before that is not biased.
static inline __attribute__((always_inline)) uintptr_t confluence_lock_bias_token(void) {
  return __atomic_load_n(&confluence_process_barrier_state, __ATOMIC_RELAXED) > 0 ? confluence_thread_token() : 0;
}

/// Makes every thread of the process that is running now execute a full memory barrier
/// before this returns (membarrier(2), MEMBARRIER_CMD_PRIVATE_EXPEDITED). Only after
/// `confluence_process_barrier_register()` returned true; returns whether it succeeded.
bool confluence_process_barrier(void);

#if defined(__linux__)
/// Sleeps while `*word == expected`, until `confluence_futex_wake_one` is called on `word`
/// (futex(2), FUTEX_WAIT_PRIVATE); returns at once if the word differs, and may return
/// spuriously. Confluence's `Lock` (Sources/Confluence/Internal/Locking.swift).
void confluence_futex_wait(uint32_t *word, uint32_t expected);

/// Wakes one thread sleeping in `confluence_futex_wait` on `word`, if any.
void confluence_futex_wake_one(uint32_t *word);
#endif

/// Nonzero while any `_Introspection` is enabled (Confluence's `DebugHook`). Read with
/// `confluence_debug_hook_is_active()`, written under `DebugHook`'s lock. A C global, not a
/// Swift one: every `subscribe(_:)` checks it, and a Swift global read from another module
/// (where `subscribe(_:)` is inlined) costs a call that makes sure it was initialised.
extern int confluence_debug_hook_active;

/// Whether any `_Introspection` is enabled: one relaxed load.
static inline __attribute__((always_inline)) bool confluence_debug_hook_is_active(void) {
  return __atomic_load_n(&confluence_debug_hook_active, __ATOMIC_RELAXED) != 0;
}

/// Records whether any `_Introspection` is enabled.
static inline __attribute__((always_inline)) void confluence_debug_hook_set_active(bool active) {
  __atomic_store_n(&confluence_debug_hook_active, active ? 1 : 0, __ATOMIC_RELAXED);
}

#endif
