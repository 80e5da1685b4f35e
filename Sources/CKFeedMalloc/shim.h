#ifndef KFEED_MALLOC_SHIM_H
#define KFEED_MALLOC_SHIM_H
// glibc's allocator settings, for the executables only (the library never changes a process-wide setting). No logic.
#include <malloc.h>

/// glibc's mallopt(M_MMAP_THRESHOLD, bytes): allocations of at least `bytes` are mapped, and unmapped when freed.
static inline int kfeed_malloc_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

/// glibc's mallopt(M_TRIM_THRESHOLD, bytes): free memory at the heap's top is returned once it reaches `bytes`.
static inline int kfeed_malloc_set_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }

/// glibc's mallopt(M_ARENA_MAX, count): threads share at most `count` heaps.
static inline int kfeed_malloc_set_arena_max(int count) { return mallopt(M_ARENA_MAX, count); }
#endif
