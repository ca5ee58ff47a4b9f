#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. healthetl uses each connection from one thread at a
// time (multi-thread mode) and never reads SQLite's memory statistics, whose bookkeeping takes a global
// mutex on every allocation. Must run before SQLite is first used.
static inline int csqlite_configure_for_bulk_load(void) {
    int code = sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    if (code != SQLITE_OK) return code;
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
