/*
 * heif_shim_internal.h — what the shim's C files share.
 */
#ifndef WEBIMAGE_HEIF_SHIM_INTERNAL_H
#define WEBIMAGE_HEIF_SHIM_INTERNAL_H

#include "heif_shim.h"

#include <libheif/heif.h>

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/** How a message about a file that is not in the HEIF family starts. */
#define HEIF_SHIM_NOT_HEIF_WORDING "not a HEIF file: "

/**
 * Maps a libheif error to a status and writes its message (after `context`) into `error`;
 * unsupported files and features and encoder failures start with words that say so.
 */
webimage_status heif_shim_fail_heif(webimage_error *_Nonnull error, struct heif_error failure,
                                    const char *_Nonnull context);

/** heif_shim_fail_heif with the status chosen by the caller. */
webimage_status heif_shim_fail_heif_as(webimage_error *_Nonnull error, webimage_status status,
                                       struct heif_error failure, const char *_Nonnull context);

/** True when a top-level box claims more bytes than `size`. */
int heif_shim_boxes_are_cut(const uint8_t *_Nonnull bytes, size_t size);

/**
 * True when an 'iloc' extent stored in the file (construction method 0) ends past `size`:
 * checked before libheif allocates the item's data.
 */
int heif_shim_item_data_is_cut(const uint8_t *_Nonnull bytes, size_t size);

/**
 * True when a 'grid' or 'iovl' item (the primary, its alpha, a thumbnail...) declares an
 * output canvas over `max_pixel_count` (0 = no limit): libheif 1.15 allocates an overlay's
 * canvas from these fields without checking them against 'ispe' or its limits.
 */
int heif_shim_derived_canvas_too_large(const uint8_t *_Nonnull bytes, size_t size, uint64_t max_pixel_count,
                                       uint64_t *_Nonnull width, uint64_t *_Nonnull height);

/** Initialises libheif and registers the multi-threaded libde265 plugin, once per process. */
void heif_shim_initialize(void);

/**
 * Registers the HEVC decoder plugin (libde265 with two worker threads). Returns 0 when
 * libde265 cannot be bound, in which case libheif's own plugin stays in charge.
 */
int heif_shim_register_hevc_decoder(void);

/** The largest picture (luma samples) any HEVC level allows: level 6.2's MaxLumaPs. */
#define HEIF_SHIM_HEVC_MAX_LUMA_SAMPLES 35651584u

/** The longest side any HEVC level allows: sqrt(8 × MaxLumaPs). */
#define HEIF_SHIM_HEVC_MAX_SIDE 16888u

/* ---- Conversions on two threads (heif_shim_convert.c) ---- */

/** Works on rows first_row ..< end_row of a picture. */
typedef void (*heif_shim_row_work)(const void *_Nonnull context, uint32_t first_row, uint32_t end_row);

/**
 * Runs `work` over rows 0 ..< height: the first half (an even number of rows) on the calling
 * thread, the rest on a second thread; all on the calling thread for pictures under 65536
 * pixels or when no thread can be started.
 */
void heif_shim_split_rows(uint32_t width, uint32_t height, heif_shim_row_work _Nonnull work,
                          const void *_Nonnull context);

/** YCbCr to RGB in 16.16 fixed point, indexed by 8-bit sample value. */
typedef struct heif_shim_ycbcr_tables {
    /** The luma term, plus one half for rounding. */
    int32_t luma[256];
    int32_t red_cr[256];
    int32_t green_cb[256];
    int32_t green_cr[256];
    int32_t blue_cb[256];
    /**
     * 0...255 for a sum's integer part + 384: the sums stay within -300...560 for every
     * matrix and range the tables support.
     */
    uint8_t clamp[1024];
} heif_shim_ycbcr_tables;

/**
 * Fills `tables` for nclx matrix coefficients `matrix` (1 BT.709, 2 unspecified = BT.601,
 * 4 FCC, 5/6 BT.601, 7 SMPTE 240M, 9 BT.2020 non-constant luminance) and full or limited
 * range, with libheif 1.15's coefficients. Returns 0 for any other matrix (RGB, YCgCo,
 * constant luminance, chromaticity-derived...): those stay with libheif's conversion.
 */
int heif_shim_ycbcr_tables_init(heif_shim_ycbcr_tables *_Nonnull tables, uint16_t matrix, int full_range);

/** One 8-bit YCbCr picture to convert into three 8-bit planes. */
typedef struct heif_shim_ycbcr_job {
    const heif_shim_ycbcr_tables *_Nonnull tables;
    /** Y, Cb, Cr. */
    const uint8_t *_Nonnull planes[3];
    size_t strides[3];
    /** R, G, B. */
    uint8_t *_Nonnull rgb[3];
    size_t rgb_strides[3];
    /** Luma size. */
    uint32_t width;
    uint32_t height;
    /** 1 where chroma is subsampled in that direction (4:2:0: both; 4:2:2: x), else 0. */
    uint32_t chroma_shift_x;
    uint32_t chroma_shift_y;
} heif_shim_ycbcr_job;

/** Converts with nearest-neighbour chroma, on two threads. */
void heif_shim_ycbcr_to_rgb(const heif_shim_ycbcr_job *_Nonnull job);

/** 8-bit R, G, B and optional alpha planes to interleave into RGBA8 rows. */
typedef struct heif_shim_interleave_job {
    /** R, G, B, alpha (NULL: opaque). */
    const uint8_t *_Nullable planes[4];
    size_t strides[4];
    uint8_t *_Nonnull pixels;
    size_t stride;
    uint32_t width;
    uint32_t height;
    /** Non-zero: the colour planes are premultiplied by alpha; the output is not. */
    int premultiplied;
} heif_shim_interleave_job;

/** Interleaves on two threads. */
void heif_shim_interleave(const heif_shim_interleave_job *_Nonnull job);

/* ---- Planar RGB from the HEVC decoder plugin ---- */

/**
 * Asks the HEVC decoder plugin to return the pictures it decodes on this thread as planar
 * 8-bit RGB instead of YCbCr, until heif_shim_end_rgb_pictures. `colr` (nullable) is the
 * image's nclx 'colr' box, which wins over the bitstream's colour description as it does in
 * libheif. Only for images without alpha: libheif reads an auxiliary alpha picture's Y plane,
 * or its R plane when it is RGB.
 */
void heif_shim_begin_rgb_pictures(const struct heif_color_profile_nclx *_Nullable colr);

void heif_shim_end_rgb_pictures(void);

/**
 * What heif_shim_begin_rgb_pictures asked for on this thread: 1 when RGB is wanted, with
 * `*has_colr` and the 'colr' box's matrix and range.
 */
int heif_shim_rgb_pictures_wanted(int *_Nonnull has_colr, uint16_t *_Nonnull matrix, int *_Nonnull full_range);

#pragma GCC visibility pop

#endif
