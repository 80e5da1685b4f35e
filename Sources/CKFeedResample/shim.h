#ifndef KFEED_RESAMPLE_SHIM_H
#define KFEED_RESAMPLE_SHIM_H
// The resampler's three inner loops (Sources/KFeedImages/Resampler.swift) compiled for AVX2, eight floats an
// instruction where the portable Swift loops, built for the x86-64 baseline (SSE2), do four. Each computes every
// output lane with the same float operations in the same order as the Swift loop it stands for (no fused
// multiply-add: the functions' target has no FMA, and contraction is off), so the results are bit for bit the same;
// only the lanes per instruction differ. The package takes no unsafe flags (no -mavx2): the target attribute makes
// these functions AVX2 on their own, and Resampler calls them only when kfeed_resample_has_avx2() says the CPU and
// the OS run them. Header-only, so the Swift module that imports it compiles them with its own optimisation.
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

typedef float kfeed_f8 __attribute__((vector_size(32), aligned(4)));
typedef int32_t kfeed_i8 __attribute__((vector_size(32), aligned(4)));
typedef uint32_t kfeed_u8 __attribute__((vector_size(32), aligned(4)));
typedef float kfeed_f4 __attribute__((vector_size(16), aligned(4)));
typedef uint8_t kfeed_b8 __attribute__((vector_size(8), aligned(1)));

/// Whether the CPU and the OS run the functions below (AVX2, and the OS saving the YMM registers).
static inline int kfeed_resample_has_avx2(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

#if defined(__x86_64__)
#define KFEED_AVX2 __attribute__((target("avx2")))

/// `count` bytes as floats (0…255) into `floats`: a source row for the ring.
KFEED_AVX2 static inline void kfeed_resample_widen_avx2(float *restrict floats, const uint8_t *restrict bytes,
                                                        long count) {
    long lane = 0;
    for (; lane + 8 <= count; lane += 8) {
        kfeed_b8 eight;
        memcpy(&eight, bytes + lane, sizeof eight);
        kfeed_f8 wide = __builtin_convertvector(eight, kfeed_f8);
        memcpy(floats + lane, &wide, sizeof wide);
    }
    for (; lane < count; lane++) floats[lane] = (float)bytes[lane];
}

/// One output row's vertical pass: `row[lane] = Σ weights[tap] × lines[tap][lane]` over `taps` (≥ 1) taps, summed as
/// the Swift loop sums them: the first tap's product, plus the next four's ((a + b) + (c + d)) when there are five
/// or more, plus each next four's, plus each remaining one's. As there, one sweep over the row for each four taps:
/// the weights and lines stay in registers across it.
KFEED_AVX2 static inline void kfeed_resample_vertical_avx2(float *restrict row, const float *const *lines,
                                                           const float *weights, long taps, long lanes) {
    const long wide = lanes & ~7L;
#define KFEED_LOAD(line, lane) (*(const kfeed_f8 *)((line) + (lane)))
#define KFEED_ROW(lane) (*(kfeed_f8 *)(row + (lane)))
    const float *first = lines[0];
    const float w0 = weights[0];
    long tap = 1;
    if (taps >= 5) {
        const float *a = lines[1], *b = lines[2], *c = lines[3], *d = lines[4];
        const float wa = weights[1], wb = weights[2], wc = weights[3], wd = weights[4];
        for (long lane = 0; lane < wide; lane += 8) {
            KFEED_ROW(lane) = w0 * KFEED_LOAD(first, lane) + ((wa * KFEED_LOAD(a, lane) + wb * KFEED_LOAD(b, lane)) +
                                                              (wc * KFEED_LOAD(c, lane) + wd * KFEED_LOAD(d, lane)));
        }
        for (long lane = wide; lane < lanes; lane++) {
            row[lane] = w0 * first[lane] + ((wa * a[lane] + wb * b[lane]) + (wc * c[lane] + wd * d[lane]));
        }
        tap = 5;
    } else {
        for (long lane = 0; lane < wide; lane += 8) KFEED_ROW(lane) = w0 * KFEED_LOAD(first, lane);
        for (long lane = wide; lane < lanes; lane++) row[lane] = w0 * first[lane];
    }
    for (; tap + 3 < taps; tap += 4) {
        const float *a = lines[tap], *b = lines[tap + 1], *c = lines[tap + 2], *d = lines[tap + 3];
        const float wa = weights[tap], wb = weights[tap + 1], wc = weights[tap + 2], wd = weights[tap + 3];
        for (long lane = 0; lane < wide; lane += 8) {
            KFEED_ROW(lane) = KFEED_ROW(lane) + ((wa * KFEED_LOAD(a, lane) + wb * KFEED_LOAD(b, lane)) +
                                                 (wc * KFEED_LOAD(c, lane) + wd * KFEED_LOAD(d, lane)));
        }
        for (long lane = wide; lane < lanes; lane++) {
            row[lane] = row[lane] + ((wa * a[lane] + wb * b[lane]) + (wc * c[lane] + wd * d[lane]));
        }
    }
    for (; tap < taps; tap++) {
        const float *a = lines[tap];
        const float wa = weights[tap];
        for (long lane = 0; lane < wide; lane += 8) KFEED_ROW(lane) = KFEED_ROW(lane) + wa * KFEED_LOAD(a, lane);
        for (long lane = wide; lane < lanes; lane++) row[lane] = row[lane] + wa * a[lane];
    }
#undef KFEED_LOAD
#undef KFEED_ROW
}

/// `sums` as Resampler.bytes makes them: below 0 to 0, above 255 to 255, then 1.5 × 2^23 added leaves the nearest
/// integer (ties to even) in the low mantissa bits, whose low byte is kept.
KFEED_AVX2 static inline kfeed_u8 kfeed_resample_bytes_avx2(kfeed_f8 sums) {
    const kfeed_f8 zero = {0, 0, 0, 0, 0, 0, 0, 0};
    const kfeed_f8 top = {255, 255, 255, 255, 255, 255, 255, 255};
    const kfeed_f8 magic = {12582912, 12582912, 12582912, 12582912, 12582912, 12582912, 12582912, 12582912};
    kfeed_i8 below = sums < zero;
    kfeed_f8 floored = (kfeed_f8)((kfeed_i8)sums & ~below);
    kfeed_i8 above = floored > top;
    kfeed_f8 clamped = (kfeed_f8)(((kfeed_i8)floored & ~above) | ((kfeed_i8)top & above));
    return (kfeed_u8)(clamped + magic);
}

/// One output's sum: `pairs` pairs of taps, the even taps' products summed in order in the low four floats, the odd
/// taps' in the high four, then the two halves added. Inlined where `pairs` is a constant, the loop unrolls whole.
KFEED_AVX2 static inline __attribute__((always_inline)) kfeed_f4 kfeed_resample_taps_avx2(const float *w,
                                                                                        const float *p, long pairs) {
    kfeed_f8 sum = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma clang loop unroll(full)
    for (long pair = 0; pair < pairs; pair++) {
        sum = sum + *(const kfeed_f8 *)(w + pair * 8) * *(const kfeed_f8 *)(p + pair * 8);
    }
    return __builtin_shufflevector(sum, sum, 0, 1, 2, 3) + __builtin_shufflevector(sum, sum, 4, 5, 6, 7);
}

/// The horizontal pass's outputs of `pairs` pairs of taps each, two at a time, rounded together.
KFEED_AVX2 static inline __attribute__((always_inline)) void
kfeed_resample_outputs_avx2(uint8_t *destination, long offset, long step, const float *pixels, const float *weights,
                            const long *starts, long outputs, long pairs) {
    const long stride = pairs * 8;
    long x = 0;
    for (; x + 1 < outputs; x += 2, offset += 2 * step) {
        kfeed_f4 left = kfeed_resample_taps_avx2(weights + x * stride, pixels + starts[x] * 4, pairs);
        kfeed_f4 right = kfeed_resample_taps_avx2(weights + (x + 1) * stride, pixels + starts[x + 1] * 4, pairs);
        kfeed_u8 bits = kfeed_resample_bytes_avx2(__builtin_shufflevector(left, right, 0, 1, 2, 3, 4, 5, 6, 7));
        kfeed_b8 bytes = __builtin_convertvector(bits, kfeed_b8);
        memcpy(destination + offset, &bytes, 4);
        memcpy(destination + offset + step, (const uint8_t *)&bytes + 4, 4);
    }
    if (x < outputs) {
        kfeed_f4 last = kfeed_resample_taps_avx2(weights + x * stride, pixels + starts[x] * 4, pairs);
        kfeed_u8 bits = kfeed_resample_bytes_avx2(__builtin_shufflevector(last, last, 0, 1, 2, 3, 4, 5, 6, 7));
        kfeed_b8 bytes = __builtin_convertvector(bits, kfeed_b8);
        memcpy(destination + offset, &bytes, 4);
    }
}

/// One output row's horizontal pass: output `x` (0 ..< `outputs`) is `Σ weights[x × taps + i] × pixels[starts[x] +
/// i]` over `taps` taps (even), RGBX pixels of four floats and weights splatted over four, summed as the Swift loop
/// sums them (the even taps in one sum, the odd in another: here the two halves of one eight-float sum, then added),
/// rounded to the nearest byte within 0…255 and stored at `destination + offset + x × step`.
///
/// Every output has `taps` taps: the caller pads each output's weights with zeros up to the most taps an output has
/// (rounded up to even), and the pixels with zeros past the row's end, so that the loop is the same for every
/// output and unrolls. The padding adds only zero products (±0), after an output's own, which leave a non-zero sum
/// as it is and can change only the sign of a zero one, which rounds to the same byte: the bytes are the Swift
/// loop's.
KFEED_AVX2 static inline void kfeed_resample_horizontal_avx2(uint8_t *destination, long offset, long step,
                                                             const float *pixels, const float *weights, long taps,
                                                             const long *starts, long outputs) {
#define KFEED_PAIRS(pairs)                                                                                            \
    case pairs:                                                                                                       \
        kfeed_resample_outputs_avx2(destination, offset, step, pixels, weights, starts, outputs, pairs);              \
        break;
    switch (taps >> 1) {
        KFEED_PAIRS(1) KFEED_PAIRS(2) KFEED_PAIRS(3) KFEED_PAIRS(4) KFEED_PAIRS(5) KFEED_PAIRS(6) KFEED_PAIRS(7)
        KFEED_PAIRS(8)
    default:
        kfeed_resample_outputs_avx2(destination, offset, step, pixels, weights, starts, outputs, taps >> 1);
    }
#undef KFEED_PAIRS
}
#undef KFEED_AVX2
#else
// Elsewhere (arm64, a Raspberry Pi beside a display) there is no AVX2: kfeed_resample_has_avx2() is 0 and Resampler
// runs its Swift loops. These stand in for the functions it names, so that it compiles, and are never called.
static inline void kfeed_resample_widen_avx2(float *floats, const uint8_t *bytes, long count) {
    (void)floats, (void)bytes, (void)count;
    __builtin_trap();
}
static inline void kfeed_resample_vertical_avx2(float *row, const float *const *lines, const float *weights,
                                                long taps, long lanes) {
    (void)row, (void)lines, (void)weights, (void)taps, (void)lanes;
    __builtin_trap();
}
static inline void kfeed_resample_horizontal_avx2(uint8_t *destination, long offset, long step, const float *pixels,
                                                  const float *weights, long taps, const long *starts, long outputs) {
    (void)destination, (void)offset, (void)step, (void)pixels, (void)weights, (void)taps, (void)starts, (void)outputs;
    __builtin_trap();
}
#endif

#endif
