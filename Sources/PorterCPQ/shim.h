#ifndef PORTER_CPQ_SHIM_H
#define PORTER_CPQ_SHIM_H
#include <libpq-fe.h>
#endif
