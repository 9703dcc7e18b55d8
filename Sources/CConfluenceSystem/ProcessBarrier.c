#include "ConfluenceSystem.h"

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

int confluence_process_barrier_state = -1;

bool confluence_process_barrier_register(void) {
#if defined(__linux__) && defined(__NR_membarrier)
  long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (commands < 0 || (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) {
    return false;
  }
  return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  return false;
#endif
}

bool confluence_process_barrier(void) {
#if defined(__linux__) && defined(__NR_membarrier)
  return syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  return false;
#endif
}

/// Registers at load time, so that `confluence_lock_bias_token()` can read the state without
/// registering: the first lock a program makes is then biased too.
__attribute__((constructor)) static void confluence_process_barrier_register_at_load(void) {
  (void)confluence_process_barrier_available();
}
