#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. healthetl uses each connection from one thread at a
// time (multi-thread mode) and never reads SQLite's memory statistics, whose bookkeeping takes a global
// mutex on every allocation. Must run before SQLite is first used.
static inline int csqlite_configure_for_bulk_load(void) {
    int code = sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    if (code != SQLITE_OK) return code;
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// sqlite3_db_config is variadic too. The integer options (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION,
// SQLITE_DBCONFIG_DEFENSIVE, …) take an int and a pointer for the resulting setting, which may be null.
static inline int csqlite_db_config_int(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)0);
}
