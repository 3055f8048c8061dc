#ifndef SLUICE_CLIBPQ_SHIM_H
#define SLUICE_CLIBPQ_SHIM_H

// The part of libpq's interface (PostgreSQL's C client, docs/postgresql.md) that Sluice uses,
// declared here rather than included: no libpq header is needed to build Sluice, on any
// platform (iOS has none). Nothing is linked: the functions are found at run time
// (Sources/Sluice/Store/PostgreSQL/LibPQ.swift), so only an import into PostgreSQL needs libpq.
//
// The names are libpq-fe.h's, and so are the values: the first members of its enums, in its
// order, unchanged since PostgreSQL 7.4 (libpq's ABI is kept stable). The connection, result
// and cancel handles are opaque pointers. Tests/SluiceTests/Store/LibPQShimTests.swift compares
// these with libpq-fe.h when libpq's headers are installed.

/// libpq-fe.h's ConnStatusType: the connection states Sluice tells apart.
typedef enum {
    CONNECTION_OK,
    CONNECTION_BAD
} ConnStatusType;

/// libpq-fe.h's ExecStatusType, up to the statuses Sluice reads.
typedef enum {
    PGRES_EMPTY_QUERY = 0,
    PGRES_COMMAND_OK,
    PGRES_TUPLES_OK,
    PGRES_COPY_OUT,
    PGRES_COPY_IN,
    PGRES_BAD_RESPONSE,
    PGRES_NONFATAL_ERROR,
    PGRES_FATAL_ERROR
} ExecStatusType;

/// postgres_ext.h's object identifier (a column's type in a result).
typedef unsigned int Oid;

/// libpq-fe.h's notice processor: called with each notice or warning the server sends.
typedef void (*PQnoticeProcessor)(void *arg, const char *message);

#endif
