#ifndef KFEED_PNG_SHIM_H
#define KFEED_PNG_SHIM_H
// libspng for Swift: every call resolved on first use, like CKFeedCurl's shim.
//
// libspng is opened with dlopen when the first display render is encoded, not linked, so a cron run that
// renders nothing never loads it. Each wrapper caches its symbol in an atomic pointer. No other logic here.
#include <spng.h>
#include "../CKFeedLazy/lazy.h"

static inline void *kfeed_spng_library(void) {
    static void *handle;
    return kfeed_lazy_library(&handle, "libspng.so.0");
}

/// 1 when libspng.so.0 can be loaded; call before anything else below.
static inline int kfeed_spng_available(void) { return kfeed_spng_library() != 0; }

#define KFEED_SPNG_SYMBOL(name) KFEED_LAZY_SYMBOL(kfeed_spng_library(), name)

static inline spng_ctx *kfeed_spng_ctx_new(int flags) { return KFEED_SPNG_SYMBOL(spng_ctx_new)(flags); }
static inline void kfeed_spng_ctx_free(spng_ctx *ctx) { KFEED_SPNG_SYMBOL(spng_ctx_free)(ctx); }
static inline const char *kfeed_spng_strerror(int error) { return KFEED_SPNG_SYMBOL(spng_strerror)(error); }
static inline int kfeed_spng_set_option(spng_ctx *ctx, enum spng_option option, int value) { return KFEED_SPNG_SYMBOL(spng_set_option)(ctx, option, value); }
static inline int kfeed_spng_set_ihdr(spng_ctx *ctx, struct spng_ihdr *ihdr) { return KFEED_SPNG_SYMBOL(spng_set_ihdr)(ctx, ihdr); }
static inline int kfeed_spng_set_plte(spng_ctx *ctx, struct spng_plte *plte) { return KFEED_SPNG_SYMBOL(spng_set_plte)(ctx, plte); }
static inline int kfeed_spng_encode_image(spng_ctx *ctx, const void *image, size_t length, int format, int flags) { return KFEED_SPNG_SYMBOL(spng_encode_image)(ctx, image, length, format, flags); }
static inline void *kfeed_spng_get_png_buffer(spng_ctx *ctx, size_t *length, int *error) { return KFEED_SPNG_SYMBOL(spng_get_png_buffer)(ctx, length, error); }
static inline int kfeed_spng_set_png_buffer(spng_ctx *ctx, const void *buffer, size_t size) { return KFEED_SPNG_SYMBOL(spng_set_png_buffer)(ctx, buffer, size); }
static inline int kfeed_spng_get_ihdr(spng_ctx *ctx, struct spng_ihdr *ihdr) { return KFEED_SPNG_SYMBOL(spng_get_ihdr)(ctx, ihdr); }
static inline int kfeed_spng_get_plte(spng_ctx *ctx, struct spng_plte *plte) { return KFEED_SPNG_SYMBOL(spng_get_plte)(ctx, plte); }
static inline int kfeed_spng_decoded_image_size(spng_ctx *ctx, int format, size_t *length) { return KFEED_SPNG_SYMBOL(spng_decoded_image_size)(ctx, format, length); }
static inline int kfeed_spng_decode_image(spng_ctx *ctx, void *out, size_t length, int format, int flags) { return KFEED_SPNG_SYMBOL(spng_decode_image)(ctx, out, length, format, flags); }
/// The buffer `spng_get_png_buffer` returns is the caller's, allocated with malloc.
static inline void kfeed_spng_free_buffer(void *buffer) { free(buffer); }
#endif
