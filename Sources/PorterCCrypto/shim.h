#ifndef PORTER_CCRYPTO_SHIM_H
#define PORTER_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
