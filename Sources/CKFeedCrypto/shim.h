#ifndef KFEED_CRYPTO_SHIM_H
#define KFEED_CRYPTO_SHIM_H
// OpenSSL's libcrypto for Swift: SHA-256 only (Foundation on Linux has no CryptoKit), resolved on first use like
// CKFeedCurl's shim.
//
// libcrypto.so.3 is opened with dlopen when the first digest is asked for, not linked: only `kfeed serve` needs one
// (the widget page's script hash). It is on every machine that has libcurl.so.4 (Debian's libcurl4 depends on
// libssl3, which holds it). Its header is not included, so that building needs no libssl-dev: the one declaration
// kfeed uses is below, from OpenSSL 3's <openssl/sha.h> (the ABI of libcrypto.so.3). No other logic here.
#include <stddef.h>
#include "../CKFeedLazy/lazy.h"

unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md);

/// The length of a SHA-256 digest, in bytes (SHA256_DIGEST_LENGTH).
enum { KFEED_SHA256_DIGEST_LENGTH = 32 };

static inline void *kfeed_crypto_library(void) {
    static void *handle;
    return kfeed_lazy_library(&handle, "libcrypto.so.3");
}

/// 1 when libcrypto.so.3 can be loaded and has SHA256; call before anything else below.
static inline int kfeed_crypto_available(void) {
    return kfeed_crypto_library() != 0 && dlsym(kfeed_crypto_library(), "SHA256") != 0;
}

/// SHA-256 of `length` bytes at `data` into the 32 bytes at `digest`; returns `digest`.
static inline unsigned char *kfeed_sha256(const unsigned char *data, size_t length, unsigned char *digest) {
    return KFEED_LAZY_SYMBOL(kfeed_crypto_library(), SHA256)(data, length, digest);
}
#endif
