/*
 * The resizer's row loops (see webimage_resample.h). The SSE2 paths keep one pixel's four
 * channels in one register; the portable paths do the same arithmetic one channel at a time.
 */
#include "webimage_resample.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#pragma STDC FP_CONTRACT OFF

/* Rounds a value already clamped to 0 ... maximum: halves away from zero. For 0.5 <= x < 2^24,
 * x + 0.5 is exact or rounds within [x + 0.5] (no binade is crossed), so truncating it rounds
 * halves away from zero; below 0.5 the answer is 0 (x + 0.5 itself may round up to 1 there). */
static inline uint32_t round_clamped(float limited) { return limited < 0.5f ? 0 : (uint32_t)(limited + 0.5f); }

/* One channel of one pixel: the sum divided by `divisor`, clamped to 0 ... maximum, rounded. */
static inline uint32_t channel_value(float sum, float divisor, float maximum) {
    float value = sum / divisor;
    float floored = value >= 0 ? value : 0;
    return round_clamped(floored < maximum ? floored : maximum);
}

/* Channel `index` of a row of 16-bit (`sixteen_bit`) or 8-bit channels. */
static inline float channel_at(const void *row, intptr_t index, bool sixteen_bit) {
    return sixteen_bit ? (float)((const uint16_t *)row)[index] : (float)((const uint8_t *)row)[index];
}

/* The portable filter of either channel width: per tap, a = weight × alpha, then
 * (red × a, green × a, blue × a, 1 × a) added to the output's sums. */
static inline void filter_portable(const void *row, bool sixteen_bit, const intptr_t *first_index,
                                   const intptr_t *weight_start, const float *weights, size_t width, float *filtered) {
    for (size_t x = 0; x < width; x++) {
        intptr_t pixel = first_index[x] * 4;
        float sum[4] = {0, 0, 0, 0};
        for (intptr_t tap = weight_start[x]; tap < weight_start[x + 1]; tap++, pixel += 4) {
            float weighted_alpha = weights[tap] * channel_at(row, pixel + 3, sixteen_bit);
            for (int channel = 0; channel < 3; channel++)
                sum[channel] += channel_at(row, pixel + channel, sixteen_bit) * weighted_alpha;
            sum[3] += 1.0f * weighted_alpha;
        }
        memcpy(filtered + 4 * x, sum, sizeof(sum));
    }
}

/* The portable write of either channel width. */
static inline void write_portable(const float *sums, size_t width, void *row, bool sixteen_bit) {
    float maximum = sixteen_bit ? 65535.0f : 255.0f;
    for (size_t x = 0; x < width; x++, sums += 4) {
        float alpha = sums[3];
        float divisors[4] = {alpha, alpha, alpha, 1.0f};
        for (size_t channel = 0; channel < 4; channel++) {
            uint32_t value = alpha <= 0 ? 0 : channel_value(sums[channel], divisors[channel], maximum);
            if (sixteen_bit) ((uint16_t *)row)[4 * x + channel] = (uint16_t)value;
            else ((uint8_t *)row)[4 * x + channel] = (uint8_t)value;
        }
    }
}

/* The exported functions take the channel width as a flag and call the inline paths with a
 * constant, so each width gets its own compiled loop. */

void webimage_resample_filter_portable(const void *row, bool sixteen_bit, const intptr_t *first_index,
                                       const intptr_t *weight_start, const float *weights, size_t width,
                                       float *filtered) {
    if (sixteen_bit) filter_portable(row, true, first_index, weight_start, weights, width, filtered);
    else filter_portable(row, false, first_index, weight_start, weights, width, filtered);
}

void webimage_resample_write_portable(const float *sums, size_t width, void *row, bool sixteen_bit) {
    if (sixteen_bit) write_portable(sums, width, row, true);
    else write_portable(sums, width, row, false);
}

#if defined(__SSE2__)
/* One pixel's sums divided, clamped and rounded as channel_value does, as four 32-bit
 * integers; zeros where a <= 0. */
static inline __m128i rounded_pixel(const float *sums, __m128 maximum) {
    float alpha = sums[3];
    if (alpha <= 0) return _mm_setzero_si128();
    const __m128 half = _mm_set1_ps(0.5f);
    __m128 value = _mm_div_ps(_mm_loadu_ps(sums), _mm_set_ps(1.0f, alpha, alpha, alpha));
    /* maxps / minps answer as channel_value's comparisons do but for -0 (kept there, +0 here),
     * which rounds to 0 either way. */
    __m128 limited = _mm_min_ps(_mm_max_ps(value, _mm_setzero_ps()), maximum);
    __m128i rounded = _mm_cvttps_epi32(_mm_add_ps(limited, half));
    return _mm_andnot_si128(_mm_castps_si128(_mm_cmplt_ps(limited, half)), rounded);
}

/* add_weighted for one pixel given as four 32-bit integers, in one register. */
static inline __m128 add_weighted_sse2(__m128 sum, __m128i channels, float weight) {
    __m128 values = _mm_cvtepi32_ps(channels);
    float weighted_alpha = weight * _mm_cvtss_f32(_mm_shuffle_ps(values, values, _MM_SHUFFLE(3, 3, 3, 3)));
    values = _mm_or_ps(_mm_and_ps(values, _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1))), _mm_set_ps(1.0f, 0, 0, 0));
    return _mm_add_ps(sum, _mm_mul_ps(values, _mm_set1_ps(weighted_alpha)));
}

/* Channels `pixel` ... `pixel + 3` of a row of 16-bit (`sixteen_bit`) or 8-bit channels, as
 * four 32-bit integers. */
static inline __m128i channels_sse2(const void *row, intptr_t pixel, bool sixteen_bit) {
    const __m128i zero = _mm_setzero_si128();
    if (sixteen_bit)
        return _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(const void *)((const uint16_t *)row + pixel)),
                                  zero);
    int32_t bytes;
    memcpy(&bytes, (const uint8_t *)row + pixel, sizeof(bytes));
    return _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(bytes), zero), zero);
}

/* filter_portable with one pixel's four channels in one register. */
static inline void filter_sse2(const void *row, bool sixteen_bit, const intptr_t *first_index,
                               const intptr_t *weight_start, const float *weights, size_t width, float *filtered) {
    for (size_t x = 0; x < width; x++) {
        intptr_t pixel = first_index[x] * 4;
        __m128 sum = _mm_setzero_ps();
        for (intptr_t tap = weight_start[x]; tap < weight_start[x + 1]; tap++, pixel += 4)
            sum = add_weighted_sse2(sum, channels_sse2(row, pixel, sixteen_bit), weights[tap]);
        _mm_storeu_ps(filtered + 4 * x, sum);
    }
}

/* write_portable with one pixel's four channels in one register. */
static inline void write_sse2(const float *sums, size_t width, void *row, bool sixteen_bit) {
    for (size_t x = 0; x < width; x++, sums += 4) {
        if (sixteen_bit) {
            /* SSE2 packs 32-bit lanes with signed saturation only: shift 0 ... 65535 down by
             * 32768, pack, and flip the top bit back. */
            __m128i shifted = _mm_sub_epi32(rounded_pixel(sums, _mm_set1_ps(65535.0f)), _mm_set1_epi32(32768));
            __m128i words = _mm_xor_si128(_mm_packs_epi32(shifted, shifted), _mm_set1_epi16((short)0x8000));
            _mm_storel_epi64((__m128i *)(void *)((uint16_t *)row + 4 * x), words);
        } else {
            __m128i words = _mm_packs_epi32(rounded_pixel(sums, _mm_set1_ps(255.0f)), _mm_setzero_si128());
            int32_t bytes = _mm_cvtsi128_si32(_mm_packus_epi16(words, words));
            memcpy((uint8_t *)row + 4 * x, &bytes, sizeof(bytes));
        }
    }
}
#endif

void webimage_resample_filter(const void *row, bool sixteen_bit, const intptr_t *first_index,
                              const intptr_t *weight_start, const float *weights, size_t width, float *filtered) {
#if defined(__SSE2__)
    if (sixteen_bit) filter_sse2(row, true, first_index, weight_start, weights, width, filtered);
    else filter_sse2(row, false, first_index, weight_start, weights, width, filtered);
#else
    webimage_resample_filter_portable(row, sixteen_bit, first_index, weight_start, weights, width, filtered);
#endif
}

void webimage_resample_write(const float *sums, size_t width, void *row, bool sixteen_bit) {
#if defined(__SSE2__)
    if (sixteen_bit) write_sse2(sums, width, row, true);
    else write_sse2(sums, width, row, false);
#else
    webimage_resample_write_portable(sums, width, row, sixteen_bit);
#endif
}
