#ifndef KFEED_CRYPTO_SHIM_H
#define KFEED_CRYPTO_SHIM_H
// OpenSSL's libcrypto for Swift: HMAC-SHA-256 only (Foundation on Linux has no CryptoKit), what `kfeed serve` signs
// picture URLs with. Opened with dlopen on the first signature, like CKFeedCurl's libcurl: a run that signs nothing
// never loads it. libcrypto.so.3 is on every machine that has libcurl.so.4 (Debian's libcurl4 depends on libssl3).
// Its headers are not included, so that building needs no libssl-dev: the two declarations used are below, as
// OpenSSL 3's <openssl/hmac.h> and <openssl/evp.h> declare them (the ABI of libcrypto.so.3). No other logic here.
#include <stddef.h>
#include "../CKFeedLazy/lazy.h"

typedef struct evp_md_st EVP_MD;
const EVP_MD *EVP_sha256(void);
unsigned char *HMAC(const EVP_MD *evp_md, const void *key, int key_len, const unsigned char *data, size_t data_len,
                    unsigned char *md, unsigned int *md_len);

/// The length of an HMAC-SHA-256, in bytes.
enum { KFEED_HMAC_SHA256_LENGTH = 32 };

static inline void *kfeed_crypto_library(void) {
    static void *handle;
    return kfeed_lazy_library(&handle, "libcrypto.so.3");
}

/// 1 when libcrypto.so.3 can be loaded and has both functions; call before `kfeed_hmac_sha256`.
static inline int kfeed_crypto_available(void) {
    void *library = kfeed_crypto_library();
    return library != 0 && dlsym(library, "EVP_sha256") != 0 && dlsym(library, "HMAC") != 0;
}

/// HMAC-SHA-256 of `length` bytes at `data` under `key` into the 32 bytes at `mac`; 1 on success.
static inline int kfeed_hmac_sha256(const unsigned char *key, int key_length, const unsigned char *data,
                                    size_t length, unsigned char *mac) {
    unsigned int written = 0;
    const EVP_MD *sha256 = KFEED_LAZY_SYMBOL(kfeed_crypto_library(), EVP_sha256)();
    return KFEED_LAZY_SYMBOL(kfeed_crypto_library(), HMAC)(sha256, key, key_length, data, length, mac, &written) != 0
        && written == KFEED_HMAC_SHA256_LENGTH;
}
#endif
