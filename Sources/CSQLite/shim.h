#ifndef SLUICE_CSQLITE_SHIM_H
#define SLUICE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are casts of integers to function pointers,
// which Swift does not import as constants.
static inline sqlite3_destructor_type sluice_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type sluice_sqlite_static(void) { return SQLITE_STATIC; }

#endif
