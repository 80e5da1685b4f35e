#ifndef KFEED_CURL_SHIM_H
#define KFEED_CURL_SHIM_H
// Typed wrappers for libcurl's variadic calls, which Swift cannot call directly. No logic here.
#include <curl/curl.h>

typedef size_t (*kfeed_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*kfeed_curl_xferinfo_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode kfeed_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode kfeed_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode kfeed_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode kfeed_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode kfeed_curl_setopt_data_callback(CURL *h, CURLoption o, kfeed_curl_data_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode kfeed_curl_setopt_xferinfo_callback(CURL *h, kfeed_curl_xferinfo_callback v) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }
static inline CURLcode kfeed_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode kfeed_curl_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode kfeed_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode kfeed_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
#endif
