#ifndef PORTER_CSQLITE_SHIM_H
#define PORTER_CSQLITE_SHIM_H
#include <sqlite3.h>

/* Opens a connection untrusted (sqlite3_db_config is variadic, so Swift cannot call it): defensive
   mode, no extension loading, schema objects (triggers, views) may call no function with side effects. */
static inline int porter_sqlite_untrusted(sqlite3 *db) {
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
    if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
    return rc;
}

/* Turns defensive mode off (0) or on (1) again: only while a new file's schema is made
   (SchemaDDL.createClassesInNewFile), on the connection that made the file. */
static inline int porter_sqlite_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}
/* Turns SQLite's memory statistics off (sqlite3_config is variadic): before the first connection
   only (SQLITE_MISUSE after, which changes nothing). Keeping them took a global mutex around
   every allocation SQLite made, a tenth of inserting a row. */
static inline int porter_sqlite_memory_statistics_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
