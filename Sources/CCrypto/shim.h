#ifndef SLUICE_CCRYPTO_SHIM_H
#define SLUICE_CCRYPTO_SHIM_H

// OpenSSL's libcrypto, for SHA-256 only (the model file's digest in sluice_imports).
// Chosen over swift-crypto, which links Foundation and costs the import ~6 MiB of
// resident memory against SPEC §7's 48 MiB budget.
#include <openssl/sha.h>

#endif
