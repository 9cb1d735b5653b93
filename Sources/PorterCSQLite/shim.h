#ifndef PORTER_CSQLITE_SHIM_H
#define PORTER_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
