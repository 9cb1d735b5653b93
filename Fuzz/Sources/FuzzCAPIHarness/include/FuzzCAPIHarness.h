#ifndef FUZZ_CAPI_HARNESS_H
#define FUZZ_CAPI_HARNESS_H
#include <stddef.h>
#include <stdint.h>

/** One input of the FuzzCAPI target: a `.realm` file, through every read-only call of porter.h. */
int porter_fuzz_c_api(const uint8_t *data, size_t size);

#endif
