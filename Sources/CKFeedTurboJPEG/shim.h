#ifndef KFEED_TURBOJPEG_SHIM_H
#define KFEED_TURBOJPEG_SHIM_H
// TurboJPEG 2.x (Debian 12 ships 2.1.5). TJSCALED is a function-like macro: wrapped here. No logic.
#include <turbojpeg.h>
#include <malloc.h>

static inline int kfeed_tj_scaled(int dimension, tjscalingfactor factor) { return TJSCALED(dimension, factor); }

/// glibc's mallopt(M_MMAP_THRESHOLD, bytes): allocations of at least `bytes` are mapped, and unmapped when freed.
static inline int kfeed_malloc_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

/// glibc's mallopt(M_ARENA_MAX, count): threads share at most `count` heaps.
static inline int kfeed_malloc_set_arena_max(int count) { return mallopt(M_ARENA_MAX, count); }
#endif
