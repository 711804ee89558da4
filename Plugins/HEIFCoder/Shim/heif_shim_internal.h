/*
 * heif_shim_internal.h — what the shim's C files share.
 */
#ifndef WEBIMAGE_HEIF_SHIM_INTERNAL_H
#define WEBIMAGE_HEIF_SHIM_INTERNAL_H

#include "heif_shim.h"

#include <libheif/heif.h>

/** Writes a printf-style reason into `error` and returns `status`. */
heif_shim_status heif_shim_fail(heif_shim_error *_Nonnull error, heif_shim_status status, const char *_Nonnull format,
                                ...) __attribute__((format(printf, 3, 4)));

/** Maps a libheif error to a status and writes its message (after `context`) into `error`. */
heif_shim_status heif_shim_fail_heif(heif_shim_error *_Nonnull error, struct heif_error failure,
                                     const char *_Nonnull context);

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

#endif
