#ifndef PORTER_CJSONC_SHIM_H
#define PORTER_CJSONC_SHIM_H
#include <json.h>
#endif
