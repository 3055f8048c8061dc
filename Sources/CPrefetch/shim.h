// The processor's prefetch hint, which Swift has no spelling for.
#pragma once

// Asks the processor to start bringing the cache line at `address` closer (clang's
// __builtin_prefetch: PREFETCHT0 on x86-64, PRFM on arm64) and returns at once. A hint only:
// it reads nothing the program sees, and an address no page backs does not fault.
static inline void sluice_prefetch(const void *address) {
    __builtin_prefetch(address);
}
