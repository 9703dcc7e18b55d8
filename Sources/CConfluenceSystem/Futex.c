#include "ConfluenceSystem.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void confluence_futex_wait(uint32_t *word, uint32_t expected) {
  // Returns when woken, at once when `*word != expected` (EAGAIN), or on a signal (EINTR):
  // the caller looks at the word again in every case.
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void confluence_futex_wake_one(uint32_t *word) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif
