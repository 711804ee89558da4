/*
 * The whole-image fast path (private to the shim): IDAT chunks walked from memory,
 * inflated in one call by libdeflate, unfiltered and expanded to RGBA by the shim.
 */
#ifndef WEBIMAGE_PNG_FAST_PATH_H
#define WEBIMAGE_PNG_FAST_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "../png_shim_internal.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/**
 * Decodes a non-interlaced PNG whose header libpng has just read (png_read_info, nothing
 * after it) into `pixels` (rows `stride` bytes apart, RGBA16 native endian when
 * `sixteen_bit`, else RGBA8), exactly as the libpng path would.
 *
 * Returns 1 when the image was decoded, 0 when the fast path declines: interlaced image,
 * an IDAT chunk truncated or failing its CRC, a zlib stream that is corrupt, not a 32 KiB
 * window or not exactly the image's size, a bad filter type, out of memory. libpng's
 * state is left untouched, so the caller then decodes with libpng from the start (rows
 * already written here are all overwritten). Only `(height - 1) * stride + width * pixel
 * size` bytes of `pixels` are used. `portable_filters` makes unfiltering use the plain C
 * loops even where SSE2 versions exist.
 */
int png_shim_fast_read(png_structp png, png_infop info, const png_shim_session *session, const png_shim_header *header,
                       int sixteen_bit, int portable_filters, uint8_t *pixels, size_t stride);

/**
 * Reverses a row's PNG filter (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) over `length`
 * bytes of `bytes_per_pixel` (1, 2, 3, 4, 6 or 8; 1 for depths below 8) bytes per pixel. `prev` is the
 * unfiltered row above, all zeros for the first row. `out` may be `in` (in place) but
 * must not otherwise overlap `in` or `prev`. `portable` picks the plain C loops even
 * where SSE2 versions exist. Returns 0, writing nothing, for a filter type above 4.
 */
int png_shim_unfilter_row(uint8_t filter, uint8_t *out, const uint8_t *in, const uint8_t *prev, size_t length,
                          unsigned bytes_per_pixel, int portable);

/** What an unfiltered row holds and what libpng's RGBA transforms make of it. */
typedef struct png_shim_row_format {
    /** Pixels per row. */
    uint32_t width;
    /** PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA. */
    int color_type;
    /** 1, 2, 4, 8 or 16. */
    int bit_depth;
    /** Non-zero for RGBA16 (native endian) output, which needs a 16-bit source; else RGBA8. */
    int sixteen_output;
    /** Non-zero when a tRNS chunk gives a gray or RGB colour key. */
    int has_key;
    /** The tRNS key as stored: gray in key[0], or red, green, blue. */
    uint16_t key[3];
    /** Palette images: the 256-entry RGBA8 table of png_shim_palette_table. */
    const uint32_t *table;
} png_shim_row_format;

/** Expands one unfiltered row in `format` to `format->width` RGBA8 or RGBA16 pixels at `out`. */
void png_shim_expand_row(const png_shim_row_format *format, const uint8_t *in, uint8_t *out);

#pragma GCC visibility pop

#endif
