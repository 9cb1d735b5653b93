#ifndef PORTER_CBSON_SHIM_H
#define PORTER_CBSON_SHIM_H
#include <bson/bson.h>
#endif
