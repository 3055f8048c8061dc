// The C library's malloc: glibc's tuning, for the CLI (a library should not tune its host's
// malloc), and giving freed memory back to the system.
#pragma once
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#elif defined(__APPLE__)
#include <malloc/malloc.h>
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

// Gives the pages of freed memory back to the system, in every arena (glibc's malloc_trim,
// macOS's pressure relief); the process's allocations and settings are unchanged. Nothing
// happens on other C libraries.
static inline void sluice_return_free_memory(void) {
#if defined(__GLIBC__)
    (void)malloc_trim(0);
#elif defined(__APPLE__)
    (void)malloc_zone_pressure_relief(NULL, 0);
#endif
}
