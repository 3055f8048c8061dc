#ifndef SLUICE_CLIBPQ_SHIM_H
#define SLUICE_CLIBPQ_SHIM_H

// libpq, PostgreSQL's C client: connections, queries, COPY (docs/postgresql.md).
#include <libpq-fe.h>

#endif
