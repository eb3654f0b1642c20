// SQLite's C API for Swift (the system's libsqlite3), with the one macro Swift cannot import
// behind a `static inline` shim named csqlite_*.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT (a function-pointer cast, which Swift does not import): SQLite copies the
/// bytes bound with it before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
