#ifndef SLUICE_BENCH_CSQLITE_SHIM_H
#define SLUICE_BENCH_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_STATIC is a cast of an integer to a function pointer, which Swift does not import.
static inline sqlite3_destructor_type sluice_bench_sqlite_static(void) { return SQLITE_STATIC; }

#endif
