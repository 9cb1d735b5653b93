#ifndef PORTER_CZLIB_SHIM_H
#define PORTER_CZLIB_SHIM_H
#include <zlib.h>
#endif
