// Interposes the C allocator: the executable's own malloc/free come before glibc's in symbol
// lookup, so every allocation in the process (Swift runtime, Foundation, Dispatch) lands here.
// Each call forwards to glibc's implementation (__libc_*) and, only while counting is on,
// bumps atomic counters. With counting off the cost is one relaxed load and a branch.
#define _GNU_SOURCE
#include "CMallocCounter.h"

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_int counting;
static atomic_llong allocations;
static atomic_llong frees;
static atomic_llong liveBytes;
static atomic_llong peakLiveBytes;

static inline int is_counting(void) { return atomic_load_explicit(&counting, memory_order_relaxed); }

static void note_allocation(void *pointer) {
  if (pointer == NULL) return;
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  long long live = atomic_fetch_add_explicit(&liveBytes, (long long)malloc_usable_size(pointer), memory_order_relaxed)
    + (long long)malloc_usable_size(pointer);
  long long peak = atomic_load_explicit(&peakLiveBytes, memory_order_relaxed);
  while (live > peak && !atomic_compare_exchange_weak_explicit(&peakLiveBytes, &peak, live, memory_order_relaxed,
                                                               memory_order_relaxed)) {
  }
}

static void note_free(void *pointer) {
  if (pointer == NULL) return;
  atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
  atomic_fetch_sub_explicit(&liveBytes, (long long)malloc_usable_size(pointer), memory_order_relaxed);
}

void *malloc(size_t size) {
  void *pointer = __libc_malloc(size);
  if (is_counting()) note_allocation(pointer);
  return pointer;
}

void *calloc(size_t count, size_t size) {
  void *pointer = __libc_calloc(count, size);
  if (is_counting()) note_allocation(pointer);
  return pointer;
}

void *realloc(void *old, size_t size) {
  if (!is_counting()) return __libc_realloc(old, size);
  note_free(old);
  void *pointer = __libc_realloc(old, size);
  note_allocation(pointer);
  return pointer;
}

void free(void *pointer) {
  if (is_counting()) note_free(pointer);
  __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
  void *pointer = __libc_memalign(alignment, size);
  if (is_counting()) note_allocation(pointer);
  return pointer;
}

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
  void *pointer = memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

void malloc_counter_start(void) {
  atomic_store(&allocations, 0);
  atomic_store(&frees, 0);
  atomic_store(&liveBytes, 0);
  atomic_store(&peakLiveBytes, 0);
  atomic_store(&counting, 1);
}

MallocCounts malloc_counter_stop(void) {
  atomic_store(&counting, 0);
  MallocCounts counts = {atomic_load(&allocations), atomic_load(&frees), atomic_load(&peakLiveBytes)};
  return counts;
}

int malloc_counter_is_active(void) {
  malloc_counter_start();
  void *volatile probe = malloc(24);
  free(probe);
  MallocCounts counts = malloc_counter_stop();
  return counts.allocations == 1 && counts.frees == 1;
}
