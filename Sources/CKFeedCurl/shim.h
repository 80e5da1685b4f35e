#ifndef KFEED_CURL_SHIM_H
#define KFEED_CURL_SHIM_H
// libcurl for Swift: typed wrappers for its variadic calls, and every call resolved on first use.
//
// libcurl is opened with dlopen when the first transfer starts, not linked: its dependencies' constructors
// (GnuTLS, Kerberos, LDAP, p11-kit…) cost more start-up time than all the rest of a cron run that has nothing
// to fetch. Each wrapper caches its symbol in an atomic pointer, so copies of these static functions in several
// object files each resolve their own, correctly. No other logic here.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include "../CKFeedLazy/lazy.h"

static inline void *kfeed_curl_library(void) {
    static void *handle;
    return kfeed_lazy_library(&handle, "libcurl.so.4");
}

/// 1 when libcurl.so.4 can be loaded; call before anything else below.
static inline int kfeed_curl_available(void) { return kfeed_curl_library() != 0; }

#define KFEED_CURL_SYMBOL(name) KFEED_LAZY_SYMBOL(kfeed_curl_library(), name)

typedef size_t (*kfeed_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*kfeed_curl_xferinfo_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode kfeed_curl_global_init(long flags) { return KFEED_CURL_SYMBOL(curl_global_init)(flags); }
static inline const char *kfeed_curl_easy_strerror(CURLcode code) { return KFEED_CURL_SYMBOL(curl_easy_strerror)(code); }
static inline CURL *kfeed_curl_easy_init(void) { return KFEED_CURL_SYMBOL(curl_easy_init)(); }
static inline void kfeed_curl_easy_cleanup(CURL *h) { KFEED_CURL_SYMBOL(curl_easy_cleanup)(h); }
static inline struct curl_slist *kfeed_curl_slist_append(struct curl_slist *l, const char *s) { return KFEED_CURL_SYMBOL(curl_slist_append)(l, s); }
static inline void kfeed_curl_slist_free_all(struct curl_slist *l) { KFEED_CURL_SYMBOL(curl_slist_free_all)(l); }

static inline CURLcode kfeed_curl_setopt_long(CURL *h, CURLoption o, long v) { return KFEED_CURL_SYMBOL(curl_easy_setopt)(h, o, v); }
static inline CURLcode kfeed_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return KFEED_CURL_SYMBOL(curl_easy_setopt)(h, o, v); }
static inline CURLcode kfeed_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return KFEED_CURL_SYMBOL(curl_easy_setopt)(h, o, v); }
static inline CURLcode kfeed_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return KFEED_CURL_SYMBOL(curl_easy_setopt)(h, o, v); }
static inline CURLcode kfeed_curl_setopt_data_callback(CURL *h, CURLoption o, kfeed_curl_data_callback v) { return KFEED_CURL_SYMBOL(curl_easy_setopt)(h, o, v); }
static inline CURLcode kfeed_curl_setopt_xferinfo_callback(CURL *h, kfeed_curl_xferinfo_callback v) { return KFEED_CURL_SYMBOL(curl_easy_setopt)(h, CURLOPT_XFERINFOFUNCTION, v); }
static inline CURLcode kfeed_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return KFEED_CURL_SYMBOL(curl_easy_getinfo)(h, i, v); }
static inline CURLcode kfeed_curl_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return KFEED_CURL_SYMBOL(curl_easy_getinfo)(h, i, v); }
static inline CURLcode kfeed_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return KFEED_CURL_SYMBOL(curl_easy_getinfo)(h, i, v); }
static inline CURLcode kfeed_curl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return KFEED_CURL_SYMBOL(curl_easy_getinfo)(h, i, v); }

static inline CURLM *kfeed_curl_multi_init(void) { return KFEED_CURL_SYMBOL(curl_multi_init)(); }
static inline CURLMcode kfeed_curl_multi_cleanup(CURLM *m) { return KFEED_CURL_SYMBOL(curl_multi_cleanup)(m); }
static inline CURLMcode kfeed_curl_multi_add_handle(CURLM *m, CURL *h) { return KFEED_CURL_SYMBOL(curl_multi_add_handle)(m, h); }
static inline CURLMcode kfeed_curl_multi_remove_handle(CURLM *m, CURL *h) { return KFEED_CURL_SYMBOL(curl_multi_remove_handle)(m, h); }
static inline CURLMcode kfeed_curl_multi_perform(CURLM *m, int *running) { return KFEED_CURL_SYMBOL(curl_multi_perform)(m, running); }
static inline CURLMcode kfeed_curl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int n, int timeout, int *ready) { return KFEED_CURL_SYMBOL(curl_multi_poll)(m, fds, n, timeout, ready); }
static inline CURLMcode kfeed_curl_multi_wakeup(CURLM *m) { return KFEED_CURL_SYMBOL(curl_multi_wakeup)(m); }
static inline CURLMsg *kfeed_curl_multi_info_read(CURLM *m, int *remaining) { return KFEED_CURL_SYMBOL(curl_multi_info_read)(m, remaining); }
static inline const char *kfeed_curl_multi_strerror(CURLMcode code) { return KFEED_CURL_SYMBOL(curl_multi_strerror)(code); }
static inline CURLMcode kfeed_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return KFEED_CURL_SYMBOL(curl_multi_setopt)(m, o, v); }
#endif
