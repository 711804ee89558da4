/*
 * heif_shim.h — the small C layer between the HEIF plugin's Swift code and libheif.
 *
 * Each function returns a webimage_status and, on failure, writes a reason into `error`.
 * HEVC is decoded by a libde265 decoder plugin registered here, which runs libde265 with
 * two worker threads (libheif's own plugin starts one) and, for 8-bit images without alpha,
 * converts YCbCr to RGB itself on two threads; AV1 goes through libheif's dav1d or aom
 * plugins. 8-bit output is decoded as planar RGB and interleaved into the caller's buffer
 * on two threads. Encoding uses libheif's x265 (HEIC) and aom (AVIF) encoders.
 */
#ifndef WEBIMAGE_HEIF_SHIM_H
#define WEBIMAGE_HEIF_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "webimage_output_buffer.h"
#include "webimage_plugin.h"

/* Every function declared here is hidden: the plugin library exports only
 * webimage_plugin_entry, so no other library or executable binds to these. */
#pragma GCC visibility push(hidden)

#ifdef __cplusplus
extern "C" {
#endif

/** What the boxes say about the primary image. */
typedef struct heif_shim_info {
    /** Size as shown, after the file's rotation, mirroring and cropping. */
    uint32_t width;
    uint32_t height;
    /** Size from the 'ispe' box: the coded size before transformations. */
    uint32_t ispe_width;
    uint32_t ispe_height;
    /** Bits per luma sample (8, 10 or 12). */
    int32_t bits_per_component;
    int32_t has_alpha;
    int32_t monochrome;
    /** Images in the file that are not thumbnails, grid tiles or auxiliary images. */
    int32_t top_level_count;
    /** Embedded thumbnails of the primary image. */
    int32_t thumbnail_count;
    /** Non-zero when the primary image is AV1 (AVIF), zero for HEVC (HEIC). */
    int32_t is_av1;
} heif_shim_info;

/** An open HEIF file held in memory. */
typedef struct heif_shim_reader heif_shim_reader;

/**
 * Opens `bytes` (valid until heif_shim_close) and reads its boxes. `max_side` (0 = libheif's
 * default of 32768) is libheif's security limit on each side of every image in the file.
 */
webimage_status heif_shim_open(const uint8_t *_Nonnull bytes, size_t size, uint64_t max_side,
                               heif_shim_reader *_Nullable *_Nonnull reader, heif_shim_info *_Nonnull info,
                               webimage_error *_Nonnull error);

void heif_shim_close(heif_shim_reader *_Nullable reader);

/**
 * Picks the smallest embedded thumbnail whose shown size covers `box_width` × `box_height`;
 * the next heif_shim_decode decodes it. Returns 1 and its size when there is one, else 0.
 */
bool heif_shim_use_thumbnail(heif_shim_reader *_Nonnull reader, uint32_t box_width, uint32_t box_height,
                             uint32_t *_Nonnull width, uint32_t *_Nonnull height);

/** An image decoded by libheif into its own buffer (planar RGB(A) or interleaved RGBA). */
typedef struct heif_shim_decoded heif_shim_decoded;

/**
 * Decodes the selected image (the primary, or the thumbnail heif_shim_use_thumbnail chose)
 * with its transformations applied, as 8-bit RGBA or, when `sixteen_bit` is set and the
 * source has more than 8 bits, 16-bit RGBA. Before decoding, fails with TOO_LARGE when the
 * shown or the 'ispe' size exceeds `max_pixel_count` (0 = no limit); after decoding, fails
 * with CORRUPT when the coded image does not have the size the boxes declare.
 * `*width` × `*height` is the output size and `*sixteen_bit_out` says which format it has.
 */
webimage_status heif_shim_decode(heif_shim_reader *_Nonnull reader, bool sixteen_bit, uint64_t max_pixel_count,
                                 heif_shim_decoded *_Nullable *_Nonnull decoded, uint32_t *_Nonnull width,
                                 uint32_t *_Nonnull height, int *_Nonnull sixteen_bit_out,
                                 webimage_error *_Nonnull error);

/**
 * Copies the decoded pixels into `pixels` (rows `stride` bytes apart; 8-bit images are
 * interleaved from their planes on two threads): 16-bit samples are
 * scaled from the source's bit depth to 0...65535 in native byte order, and premultiplied
 * alpha is undone.
 */
void heif_shim_copy(const heif_shim_decoded *_Nonnull decoded, void *_Nonnull pixels, size_t stride);

void heif_shim_release(heif_shim_decoded *_Nullable decoded);

/** What heif_shim_encode writes. */
typedef struct heif_shim_encode_options {
    /** Non-zero for AVIF (AV1 through aom), zero for HEIC (HEVC through x265). */
    int32_t av1;
    /** 0...100. */
    int32_t quality;
    /** Non-zero: lossless, 4:4:4, RGB matrix (identity). */
    int32_t lossless;
    /** Non-zero: store the alpha channel; zero: drop it. */
    int32_t keep_alpha;
} heif_shim_encode_options;

/**
 * Encodes RGBA pixels (8 bits, or 16 bits native endian stored as 10-bit samples) as one
 * primary image. libheif writes the file straight into `output` (empty, with the allocator
 * the bytes should come from) through heif_context_write; on failure `output` is discarded.
 */
webimage_status heif_shim_encode(const void *_Nonnull pixels, uint32_t width, uint32_t height, size_t stride,
                                 bool sixteen_bit, heif_shim_encode_options options,
                                 webimage_output_buffer *_Nonnull output, webimage_error *_Nonnull error);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif
