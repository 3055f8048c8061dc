#ifndef SLUICE_CSQLITE_SHIM_H
#define SLUICE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are casts of integers to function pointers,
// which Swift does not import as constants.
static inline sqlite3_destructor_type sluice_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type sluice_sqlite_static(void) { return SQLITE_STATIC; }

// Turns off SQLite's memory statistics, which take a global mutex around every allocation
// SQLite makes (a few percent of a big import). Process-wide and only before SQLite is
// initialised, so the CLI calls it first thing; a library leaves it to its host. Returns
// SQLITE_OK, or SQLITE_MISUSE once SQLite is initialised.
static inline int sluice_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// Sets whether the connection is defensive (SQLITE_DBCONFIG_DEFENSIVE, which refuses
// PRAGMA writable_schema); returns what it was. sqlite3_db_config is variadic, which Swift
// cannot call.
static inline int sluice_sqlite_set_defensive(sqlite3 *db, int on) {
    int was = 0;
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &was);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
    return was;
}

#endif
