#ifndef CPASSMINT_SQLITE_SHIM_H
#define CPASSMINT_SQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a function-pointer macro Swift cannot import: it tells SQLite to copy bound text/blobs. */
static inline sqlite3_destructor_type cpassmint_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
