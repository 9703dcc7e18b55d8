#ifndef CMALLOCCOUNTER_H
#define CMALLOCCOUNTER_H

#include <stdint.h>

/// Allocation statistics gathered while counting was on.
typedef struct {
  int64_t allocations;   // malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign
  int64_t frees;         // free of a non-null pointer
  int64_t peakLiveBytes; // the highest (allocated - freed) usable bytes since the reset
} MallocCounts;

/// Zeroes the counters and switches counting on (process-wide, every thread).
void malloc_counter_start(void);
/// Switches counting off and returns what was counted since `malloc_counter_start`.
MallocCounts malloc_counter_stop(void);
/// 1 when this interposer is the process's malloc (checked by allocating once).
int malloc_counter_is_active(void);

#endif
