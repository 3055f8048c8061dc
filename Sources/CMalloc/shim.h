// glibc's malloc tuning, for the CLI (a library should not tune its host's malloc).
#pragma once
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

// Fixes glibc's mmap threshold at `bytes`. Left alone, glibc raises the threshold (up to
// 32 MiB) after the first large block is freed, then keeps freed memory instead of returning
// it to the system. Returns 1 on success, 0 where there is no such setting.
static inline int sluice_fix_mmap_threshold(int bytes) {
#if defined(M_MMAP_THRESHOLD)
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}
