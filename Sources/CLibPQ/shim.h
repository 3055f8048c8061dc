#ifndef SLUICE_CLIBPQ_SHIM_H
#define SLUICE_CLIBPQ_SHIM_H

// libpq's types and constants, PostgreSQL's C client (docs/postgresql.md). Nothing is linked:
// the functions are found at run time (Store/PostgreSQL/LibPQ.swift), so the header is found
// here rather than through pkg-config, whose flags would link libpq into every build.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#elif __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#elif __has_include("/opt/homebrew/opt/libpq/include/libpq-fe.h")
#include "/opt/homebrew/opt/libpq/include/libpq-fe.h"
#else
#include "/usr/local/opt/libpq/include/libpq-fe.h"
#endif

#endif
