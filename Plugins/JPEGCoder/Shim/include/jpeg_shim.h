/*
 * jpeg_shim.h — the small C layer between the JPEG plugin's Swift code and libjpeg-turbo.
 *
 * libjpeg reports errors through a callback that must not return (longjmp), so every
 * libjpeg call happens in C, behind these functions. Each returns a webimage_status and,
 * on failure, writes a reason into `error`.
 */
#ifndef WEBIMAGE_JPEG_SHIM_H
#define WEBIMAGE_JPEG_SHIM_H

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

/** What the markers before the first scan say. */
typedef struct jpeg_shim_header {
    uint32_t width;
    uint32_t height;
    /** 1 (gray), 3 (YCbCr / RGB) or 4 (CMYK / YCCK). */
    int32_t components;
    /** Non-zero for progressive (SOF2) files. */
    int32_t progressive;
    /** Non-zero for CMYK or YCCK files. */
    int32_t cmyk;
    /** EXIF orientation 1...8 (1 when absent or invalid). */
    int32_t orientation;
} jpeg_shim_header;

/** Reads the header and the EXIF orientation. */
webimage_status jpeg_shim_read_header(const uint8_t *_Nonnull bytes, size_t size, jpeg_shim_header *_Nonnull header,
                                      webimage_error *_Nonnull error);

/** An open decode of a whole JPEG held in memory. */
typedef struct jpeg_shim_reader jpeg_shim_reader;

/**
 * Opens `bytes` (valid until jpeg_shim_close), reads the header and sets DCT scaling to
 * `scale_eighths` / 8 (1, 2, 4 or 8; 8 = full size). `*width` × `*height` is the output size.
 */
webimage_status jpeg_shim_open(const uint8_t *_Nonnull bytes, size_t size, uint32_t scale_eighths,
                               jpeg_shim_reader *_Nullable *_Nonnull reader, jpeg_shim_header *_Nonnull header,
                               uint32_t *_Nonnull width, uint32_t *_Nonnull height, webimage_error *_Nonnull error);

/** Changes the DCT scaling of an open reader (before jpeg_shim_read_image) and gives the new output size. */
webimage_status jpeg_shim_rescale(jpeg_shim_reader *_Nonnull reader, uint32_t scale_eighths, uint32_t *_Nonnull width,
                                  uint32_t *_Nonnull height, webimage_error *_Nonnull error);

/**
 * Bytes libjpeg will allocate besides the output for this reader's file: the whole-image
 * coefficient buffer of a progressive or multi-scan file (at full size whatever the DCT
 * scaling), 0 for a single-scan file (its row buffers are a few rows of the width).
 */
uint64_t jpeg_shim_working_bytes(jpeg_shim_reader *_Nonnull reader);

/**
 * Decodes into RGBA8 `pixels` (output size from jpeg_shim_open). Gray is replicated, CMYK
 * and YCCK become RGB; alpha is 255. A file that ends early fails with TRUNCATED; once
 * `deadline_ns` (CLOCK_MONOTONIC, 0 = none) passes, the row loop stops with TIMED_OUT
 * (checked every 64 rows). A DCT-scaled decode of a progressive file reads only the scans
 * whose coefficients the scaled IDCTs use and stops once those are final (the same pixels).
 */
webimage_status jpeg_shim_read_image(jpeg_shim_reader *_Nonnull reader, void *_Nonnull pixels, size_t stride,
                                     uint64_t deadline_ns, webimage_error *_Nonnull error);

/**
 * Whether a 1/8-scale decode of this reader may take the DC fast path (on by default): for
 * baseline gray, 4:4:4, 4:2:2 and 4:2:0 files the plugin decodes the DC coefficients itself,
 * on two threads for large files, with the same pixels as libjpeg-turbo. Tests turn it off
 * to compare.
 */
void jpeg_shim_allow_dc_path(jpeg_shim_reader *_Nonnull reader, bool allowed);

/** How the last jpeg_shim_read_image of a reader decoded. */
typedef enum jpeg_shim_dc_route {
    /** libjpeg decoded (not 1/8 scale, a file the fast path does not cover, or irregular data). */
    JPEG_SHIM_DC_NOT_USED = 0,
    /** The DC fast path on the calling thread. */
    JPEG_SHIM_DC_ONE_THREAD = 1,
    /** The DC fast path on two threads, split at a restart marker. */
    JPEG_SHIM_DC_SPLIT_AT_RESTART = 2,
    /** The DC fast path on two threads, the second having started speculatively in the middle. */
    JPEG_SHIM_DC_SPECULATIVE_SPLIT = 3,
    /** A progressive file's DC fast path: its needed scans decoded on the calling thread. */
    JPEG_SHIM_DC_PROGRESSIVE = 4,
    /** A progressive file's DC fast path: its DC scans on the calling thread, its AC scans (4:2:0 chroma) on another. */
    JPEG_SHIM_DC_PROGRESSIVE_TWO_THREADS = 5,
} jpeg_shim_dc_route;

jpeg_shim_dc_route jpeg_shim_last_dc_route(const jpeg_shim_reader *_Nonnull reader);

void jpeg_shim_close(jpeg_shim_reader *_Nullable reader);

/** The smallest of 1, 2, 4, 8 eighths whose output still covers `box_width` × `box_height`. */
uint32_t jpeg_shim_scale_for_box(uint32_t width, uint32_t height, uint32_t box_width, uint32_t box_height);

/** An incremental decode: rows so far for sequential files, scans so far for progressive ones. */
typedef struct jpeg_shim_incremental jpeg_shim_incremental;

/** Starts an incremental decode; images above `max_pixel_count` (0 = none) fail with TOO_LARGE. */
jpeg_shim_incremental *_Nullable jpeg_shim_incremental_create(uint64_t max_pixel_count, uint64_t max_byte_count);

/** Feeds the next bytes. `is_final` with an unfinished image gives WEBIMAGE_STATUS_TRUNCATED_DATA. */
webimage_status jpeg_shim_incremental_append(jpeg_shim_incremental *_Nonnull decoder, const uint8_t *_Nullable bytes,
                                             size_t size, bool is_final, webimage_error *_Nonnull error);

/** The RGBA8 canvas so far: `pixels` is NULL until something can be shown. */
typedef struct jpeg_shim_canvas {
    const void *_Nullable pixels;
    size_t stride;
    jpeg_shim_header header;
    /** Non-zero once the whole image has been decoded. */
    int32_t complete;
} jpeg_shim_canvas;

void jpeg_shim_incremental_canvas(const jpeg_shim_incremental *_Nonnull decoder, jpeg_shim_canvas *_Nonnull canvas);

void jpeg_shim_incremental_destroy(jpeg_shim_incremental *_Nullable decoder);

/**
 * Encodes RGBA pixels (8 or 16 bits, native endian) as a baseline YCbCr 4:2:0 JPEG with
 * `quality` 1...100; translucent pixels are composited over `background_rgba` (0xRRGGBBAA).
 * libjpeg writes the file straight into `output` (empty, with the allocator the bytes should
 * come from) through a destination manager; on failure `output` is discarded.
 */
webimage_status jpeg_shim_encode(const void *_Nonnull pixels, uint32_t width, uint32_t height, size_t stride,
                                 bool sixteen_bit, int quality, uint32_t background_rgba,
                                 webimage_output_buffer *_Nonnull output, webimage_error *_Nonnull error);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif
