// SQLite's C API for Swift (the system's libsqlite3), with what Swift cannot import (a macro, a
// variadic function) behind `static inline` shims named csqlite_*.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT (a function-pointer cast, which Swift does not import): SQLite copies the
/// bytes bound with it before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// `sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, ...)` (variadic, which Swift
/// does not import): whether closing the last connection leaves the WAL as it is instead of
/// checkpointing it into the database and removing it. Returns SQLite's result code.
static inline int csqlite_set_no_checkpoint_on_close(sqlite3 *db, int on) {
    int now = 0;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, &now);
}

#endif
