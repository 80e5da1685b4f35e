#ifndef KFEED_LAZY_H
#define KFEED_LAZY_H
// Libraries opened on first use, for the shims of CKFeedCurl, CKFeedJPEG, CKFeedPNG and CKFeedText: none of them is
// linked, so a run that needs none of them never loads them or runs their dependencies' constructors. Included
// by those shims, not a module of its own. No other logic here.
#include <dlfcn.h>

/// The library `file`, opened on the first call and kept in `*handle`; NULL when it cannot be loaded.
static inline void *kfeed_lazy_library(void **handle, const char *file) {
    void *loaded = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (!loaded) {
        loaded = dlopen(file, RTLD_NOW | RTLD_LOCAL);
        __atomic_store_n(handle, loaded, __ATOMIC_RELEASE);
    }
    return loaded;
}

/// `name` from the library whose handle `library` gives, typed as its header declares it, looked up on first use
/// and cached in an atomic pointer per call site (copies of a shim's functions in several object files each
/// resolve their own, correctly).
#define KFEED_LAZY_SYMBOL(library, name)                                                         \
    ({                                                                                           \
        static __typeof__(&name) cached;                                                         \
        __typeof__(&name) symbol = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                   \
        if (!symbol) {                                                                           \
            symbol = (__typeof__(&name))dlsym((library), #name);                                 \
            __atomic_store_n(&cached, symbol, __ATOMIC_RELEASE);                                 \
        }                                                                                        \
        symbol;                                                                                  \
    })
#endif
