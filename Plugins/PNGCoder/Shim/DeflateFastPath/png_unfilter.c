/*
 * PNG row unfiltering for the fast path. Sub, Average and Paeth depend on the pixel to
 * the left, so they run pixel by pixel: the plain C loops keep each byte of the pixel to
 * the left in a register (independent chains the CPU overlaps); with SSE2 some cases run
 * a whole pixel as one vector step instead (see unfilter_vector). `portable` forces the
 * plain loops everywhere, so tests can check both on the same machine.
 */
#include <stdlib.h>
#include <string.h>

#include "png_fast_path.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define PNG_SHIM_HAVE_SSE2 1
#endif

static void unfilter_up(uint8_t *out, const uint8_t *in, const uint8_t *prev, size_t length) {
    for (size_t i = 0; i < length; i++) out[i] = (uint8_t)(in[i] + prev[i]);
}

/*
 * The plain C loops keep the bytes to the left in local variables: reading them back from
 * `out` (which may alias `in` and `prev` for the compiler) would put a store-to-load round
 * trip on every byte's dependency chain. `bpp` is a constant where these are inlined.
 */
#define PNG_SHIM_MAX_BPP 8

static inline __attribute__((always_inline)) void sub_portable(uint8_t *out, const uint8_t *in, size_t length,
                                                               size_t bpp) {
    uint8_t left[PNG_SHIM_MAX_BPP] = {0};
    for (size_t i = 0; i < length; i += bpp) {
        for (size_t k = 0; k < bpp && i + k < length; k++) out[i + k] = left[k] = (uint8_t)(in[i + k] + left[k]);
    }
}

static inline __attribute__((always_inline)) void average_portable(uint8_t *out, const uint8_t *in, const uint8_t *prev,
                                                                   size_t length, size_t bpp) {
    uint8_t left[PNG_SHIM_MAX_BPP] = {0};
    for (size_t i = 0; i < length; i += bpp) {
        for (size_t k = 0; k < bpp && i + k < length; k++) {
            out[i + k] = left[k] = (uint8_t)(in[i + k] + ((left[k] + prev[i + k]) >> 1));
        }
    }
}

/** The Paeth predictor: whichever of left, above and upper-left is nearest to left + above - upper-left. */
static inline int paeth_predictor(int left, int above, int upper_left) {
    int distance_left = abs(above - upper_left);
    int distance_above = abs(left - upper_left);
    int distance_upper_left = abs(left + above - 2 * upper_left);
    /* Written as selects, not branches: on noisy rows the choice is unpredictable. */
    int nearer = distance_above <= distance_upper_left ? above : upper_left;
    int smaller = distance_above <= distance_upper_left ? distance_above : distance_upper_left;
    return distance_left <= smaller ? left : nearer;
}

/* With no left pixel, left and upper-left count as 0 (the predictor is then the byte above). */
static inline __attribute__((always_inline)) void paeth_portable(uint8_t *out, const uint8_t *in, const uint8_t *prev,
                                                                 size_t length, size_t bpp) {
    uint8_t left[PNG_SHIM_MAX_BPP] = {0}, upper_left[PNG_SHIM_MAX_BPP] = {0};
    for (size_t i = 0; i < length; i += bpp) {
        for (size_t k = 0; k < bpp && i + k < length; k++) {
            uint8_t above = prev[i + k];
            out[i + k] = left[k] = (uint8_t)(in[i + k] + paeth_predictor(left[k], above, upper_left[k]));
            upper_left[k] = above;
        }
    }
}

/** Sub, Average or Paeth with the plain C loops, specialised for each pixel size. */
static void unfilter_portable(uint8_t filter, uint8_t *out, const uint8_t *in, const uint8_t *prev, size_t length,
                              size_t bpp) {
#define PNG_SHIM_PORTABLE_CASE(size)                                         \
    case size:                                                               \
        if (filter == 1) sub_portable(out, in, length, size);                \
        else if (filter == 3) average_portable(out, in, prev, length, size); \
        else paeth_portable(out, in, prev, length, size);                    \
        break;
    switch (bpp) {
        PNG_SHIM_PORTABLE_CASE(1)
        PNG_SHIM_PORTABLE_CASE(2)
        PNG_SHIM_PORTABLE_CASE(3)
        PNG_SHIM_PORTABLE_CASE(4)
        PNG_SHIM_PORTABLE_CASE(6)
    default:
        PNG_SHIM_PORTABLE_CASE(8)
    }
#undef PNG_SHIM_PORTABLE_CASE
}

#ifdef PNG_SHIM_HAVE_SSE2

/*
 * A pixel of `bpp` (3, 4, 6 or 8) bytes in the low bytes of a vector (x86 is little
 * endian), assembled in registers from whole loads: copying 3 or 6 bytes into a wider
 * variable would go through the stack and stall on store forwarding.
 */
static inline __m128i load_pixel(const uint8_t *p, size_t bpp) {
    uint16_t low16;
    uint32_t low32;
    uint64_t value;
    switch (bpp) {
    case 3:
        memcpy(&low16, p, 2);
        return _mm_cvtsi32_si128((int)(low16 | (uint32_t)p[2] << 16));
    case 4:
        memcpy(&low32, p, 4);
        return _mm_cvtsi32_si128((int)low32);
    case 6:
        memcpy(&low32, p, 4);
        memcpy(&low16, p + 4, 2);
        return _mm_cvtsi64_si128((long long)(low32 | (uint64_t)low16 << 32));
    default:
        memcpy(&value, p, 8);
        return _mm_cvtsi64_si128((long long)value);
    }
}

static inline void store_pixel(uint8_t *p, __m128i pixel, size_t bpp) {
    uint64_t value = (uint64_t)_mm_cvtsi128_si64(pixel);
    uint16_t low16 = (uint16_t)value;
    uint32_t low32 = (uint32_t)value;
    uint16_t high16 = (uint16_t)(value >> 32);
    switch (bpp) {
    case 3:
        memcpy(p, &low16, 2);
        p[2] = (uint8_t)(value >> 16);
        break;
    case 4:
        memcpy(p, &low32, 4);
        break;
    case 6:
        memcpy(p, &low32, 4);
        memcpy(p + 4, &high16, 2);
        break;
    default:
        memcpy(p, &value, 8);
        break;
    }
}

static inline __m128i select_lanes(__m128i mask, __m128i when_set, __m128i when_clear) {
    return _mm_or_si128(_mm_and_si128(mask, when_set), _mm_andnot_si128(mask, when_clear));
}

static inline __m128i absolute16(__m128i value) {
    return _mm_max_epi16(value, _mm_sub_epi16(_mm_setzero_si128(), value));
}

/* Inlined with a constant `bpp` by the switch in unfilter_vector, so the loads and stores are fixed-size. */
static inline __attribute__((always_inline)) void sub_vector(uint8_t *out, const uint8_t *in, size_t length,
                                                             size_t bpp) {
    __m128i left = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= length; i += bpp) {
        left = _mm_add_epi8(load_pixel(in + i, bpp), left);
        store_pixel(out + i, left, bpp);
    }
}

/** floor((left + above) / 2) per byte is the rounded-up average minus the lost low bit. */
static inline __attribute__((always_inline)) void average_vector(uint8_t *out, const uint8_t *in, const uint8_t *prev,
                                                                 size_t length, size_t bpp) {
    const __m128i one = _mm_set1_epi8(1);
    __m128i left = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= length; i += bpp) {
        __m128i above = load_pixel(prev + i, bpp);
        __m128i rounding = _mm_and_si128(_mm_xor_si128(left, above), one);
        __m128i mean = _mm_sub_epi8(_mm_avg_epu8(left, above), rounding);
        left = _mm_add_epi8(load_pixel(in + i, bpp), mean);
        store_pixel(out + i, left, bpp);
    }
}

/** Paeth on 16-bit lanes, one pixel per step; the first pixel sees left = upper-left = 0. */
static inline __attribute__((always_inline)) void paeth_vector(uint8_t *out, const uint8_t *in, const uint8_t *prev,
                                                               size_t length, size_t bpp) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i low_byte = _mm_set1_epi16(0xFF);
    __m128i left = zero, upper_left = zero;
    for (size_t i = 0; i + bpp <= length; i += bpp) {
        __m128i above = _mm_unpacklo_epi8(load_pixel(prev + i, bpp), zero);
        __m128i filtered = _mm_unpacklo_epi8(load_pixel(in + i, bpp), zero);
        __m128i above_step = _mm_sub_epi16(above, upper_left);
        __m128i left_step = _mm_sub_epi16(left, upper_left);
        __m128i distance_left = absolute16(above_step);
        __m128i distance_above = absolute16(left_step);
        __m128i distance_upper_left = absolute16(_mm_add_epi16(above_step, left_step));
        __m128i above_or_upper_left =
            select_lanes(_mm_cmpgt_epi16(distance_above, distance_upper_left), upper_left, above);
        __m128i nearest_other = _mm_min_epi16(distance_above, distance_upper_left);
        __m128i predictor = select_lanes(_mm_cmpgt_epi16(distance_left, nearest_other), above_or_upper_left, left);
        left = _mm_and_si128(_mm_add_epi16(filtered, predictor), low_byte);
        upper_left = above;
        store_pixel(out + i, _mm_packus_epi16(left, left), bpp);
    }
}

/*
 * Where the vector loops pay, measured with clang -O2 on 1920-pixel rows: Sub for 3, 4,
 * 6 and 8 bytes per pixel (2-4x faster), Average and Paeth for 6 and 8 (the plain loops
 * run out of registers there: Paeth 6 ns against 11-14 ns per pixel). For 3 and 4 bytes
 * the plain Average and Paeth loops, whose bytes are independent chains, are as fast or
 * faster (Paeth 4.8 against 6 ns per pixel for 3 bytes). Returns 0 when not handled here.
 */
static int unfilter_vector(uint8_t filter, uint8_t *out, const uint8_t *in, const uint8_t *prev, size_t length,
                           size_t bpp) {
    switch (bpp) {
    case 3:
        if (filter != 1) return 0;
        sub_vector(out, in, length, 3);
        return 1;
    case 4:
        if (filter != 1) return 0;
        sub_vector(out, in, length, 4);
        return 1;
    case 6:
        if (filter == 1) sub_vector(out, in, length, 6);
        else if (filter == 3) average_vector(out, in, prev, length, 6);
        else paeth_vector(out, in, prev, length, 6);
        return 1;
    case 8:
        if (filter == 1) sub_vector(out, in, length, 8);
        else if (filter == 3) average_vector(out, in, prev, length, 8);
        else paeth_vector(out, in, prev, length, 8);
        return 1;
    default:
        return 0;
    }
}

#endif

int png_shim_unfilter_row(uint8_t filter, uint8_t *out, const uint8_t *in, const uint8_t *prev, size_t length,
                          unsigned bytes_per_pixel, int portable) {
    size_t bpp = bytes_per_pixel;
    switch (filter) {
    case 0:
        if (out != in) memcpy(out, in, length);
        return 1;
    case 2:
        unfilter_up(out, in, prev, length);
        return 1;
    case 1:
    case 3:
    case 4:
        break;
    default:
        return 0;
    }
#ifdef PNG_SHIM_HAVE_SSE2
    /* Whole pixels only: rows of 3+ byte pixels are always a whole number of pixels. */
    if (!portable && length % bpp == 0 && unfilter_vector(filter, out, in, prev, length, bpp)) return 1;
#else
    (void)portable;
#endif
    unfilter_portable(filter, out, in, prev, length, bpp);
    return 1;
}
