/*
 * webimage_resample.h — the inner loops of WebImageCore's area-averaging resizer
 * (ImageResizer): one source row filtered horizontally into premultiplied sums, and one row of
 * accumulated sums un-premultiplied and rounded into pixels. SSE2 on x86-64, plain C
 * elsewhere. Each lane's arithmetic is the Swift reference's, in its order (a multiply, then
 * an add, never fused), so every build gives the same pixels. Not part of the plugin ABI.
 */
#ifndef WEBIMAGE_RESAMPLE_H
#define WEBIMAGE_RESAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Filters one row of RGBA pixels horizontally, of 16-bit channels when `sixteen_bit`, else of
 * 8-bit ones. For each of the `width` outputs x, the taps `weight_start[x] ..< weight_start[x
 * + 1]` cover the source pixels from `first_index[x]` on; with a = weight × source alpha,
 * `filtered[4x ..< 4x + 4]` is the sum over the taps of (red × a, green × a, blue × a, a).
 */
void webimage_resample_filter(const void *_Nonnull row, bool sixteen_bit, const intptr_t *_Nonnull first_index,
                              const intptr_t *_Nonnull weight_start, const float *_Nonnull weights, size_t width,
                              float *_Nonnull filtered);

/*
 * Writes `width` pixels (16-bit channels when `sixteen_bit`, else 8-bit) from sums (red × a,
 * green × a, blue × a, a): each colour divided by a, alpha as it is, clamped to 0 ... the
 * channel's maximum and rounded to the nearest integer, halves away from zero; all four
 * channels 0 where a <= 0.
 */
void webimage_resample_write(const float *_Nonnull sums, size_t width, void *_Nonnull row, bool sixteen_bit);

/* The plain C paths, in every build: the functions above use them where SSE2 is missing, and
 * the tests check that both give the same values. */
void webimage_resample_filter_portable(const void *_Nonnull row, bool sixteen_bit, const intptr_t *_Nonnull first_index,
                                       const intptr_t *_Nonnull weight_start, const float *_Nonnull weights,
                                       size_t width, float *_Nonnull filtered);
void webimage_resample_write_portable(const float *_Nonnull sums, size_t width, void *_Nonnull row, bool sixteen_bit);

#endif
