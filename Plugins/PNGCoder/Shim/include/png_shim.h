/*
 * png_shim.h — the small C layer between the PNG plugin's Swift code and libpng.
 *
 * libpng reports errors with longjmp and exposes its constants as macros, which Swift
 * cannot use safely; every libpng call therefore happens in C, behind these functions.
 * All of them return a webimage_status and, on failure, write a reason into `error`.
 */
#ifndef WEBIMAGE_PNG_SHIM_H
#define WEBIMAGE_PNG_SHIM_H

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

/** What the IHDR and the chunks before IDAT say. */
typedef struct png_shim_header {
    uint32_t width;
    uint32_t height;
    /** 1, 2, 4, 8 or 16. */
    int32_t bit_depth;
    /** PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA. */
    int32_t color_type;
    /** Non-zero for Adam7. */
    int32_t interlaced;
    /** Non-zero when the image has an alpha channel or a tRNS chunk. */
    int32_t has_alpha;
} png_shim_header;

/** Reads the header (signature, IHDR, ancillary chunks up to the first IDAT). */
webimage_status png_shim_read_header(const uint8_t *_Nonnull bytes, size_t size, png_shim_header *_Nonnull header,
                                     webimage_error *_Nonnull error);

/** An open decode of a whole PNG held in memory. */
typedef struct png_shim_reader png_shim_reader;

/**
 * Opens `bytes` (which must stay valid until png_shim_close) and reads the header.
 * `sixteen_bit` asks for RGBA16 output when the image has 16-bit samples; otherwise the
 * output is RGBA8 (16-bit samples are scaled with rounding, png_set_scale_16).
 * `*sixteen_bit_output` says which format png_shim_read_image will write.
 */
webimage_status png_shim_open(const uint8_t *_Nonnull bytes, size_t size, bool sixteen_bit,
                              png_shim_reader *_Nullable *_Nonnull reader, png_shim_header *_Nonnull header,
                              int *_Nonnull sixteen_bit_output, webimage_error *_Nonnull error);

/**
 * Decodes the whole image as RGBA (8 or 16 bits, see png_shim_open) into `pixels`, rows
 * `stride` bytes apart, through PNG_SHIM_DECODER_AUTOMATIC. Call it once per reader.
 * Bytes between rows (past width × pixel size) may be overwritten.
 */
webimage_status png_shim_read_image(png_shim_reader *_Nonnull reader, void *_Nonnull pixels, size_t stride,
                                    webimage_error *_Nonnull error);

/** Which decoder png_shim_read_image_using runs for a full-size decode. */
typedef enum png_shim_decoder {
    /**
     * png_shim_read_image's choice: for a non-interlaced image, the IDAT chunks inflated in
     * one call by libdeflate and unfiltered by the shim (SSE2 where available); libpng's
     * reader for Adam7, and from the start whenever that fast path declines (a bad CRC or
     * zlib stream, truncated data, ...), so errors are libpng's.
     */
    PNG_SHIM_DECODER_AUTOMATIC = 0,
    /** libpng's reader only. */
    PNG_SHIM_DECODER_LIBPNG = 1,
    /** Like PNG_SHIM_DECODER_AUTOMATIC, with the plain C unfiltering loops even where SSE2 ones exist. */
    PNG_SHIM_DECODER_PORTABLE_FILTERS = 2,
} png_shim_decoder;

/**
 * png_shim_read_image with the decoder chosen (tests compare the paths). When not NULL,
 * `*used_fast_path` is set to 1 when the libdeflate path decoded the image, else 0.
 */
webimage_status png_shim_read_image_using(png_shim_reader *_Nonnull reader, void *_Nonnull pixels, size_t stride,
                                          png_shim_decoder decoder, int32_t *_Nullable used_fast_path,
                                          webimage_error *_Nonnull error);

/** Output size of png_shim_read_reduced for `factor`: ceil(width / factor) × ceil(height / factor). */
void png_shim_reduced_size(const png_shim_header *_Nonnull header, uint32_t factor, uint32_t *_Nonnull width,
                           uint32_t *_Nonnull height);

/**
 * Bytes png_shim_read_reduced allocates besides the output for `factor`: the block sums
 * (one per output pixel), its row, index and column buffers and libpng's two row buffers,
 * each proportional to the source width.
 */
uint64_t png_shim_reduced_working_bytes(const png_shim_header *_Nonnull header, uint32_t factor);

/**
 * Decodes the image reduced by the integer `factor` (each output pixel is the
 * alpha-weighted mean of a factor × factor block) as RGBA8, streaming rows: memory is
 * proportional to the output and the source width, never to the full image (interlaced
 * images too). It first checks png_shim_reduced_working_bytes against `max_byte_count`
 * (TOO_LARGE; 0 = no limit) and stops with TIMED_OUT once `deadline_ns` (CLOCK_MONOTONIC,
 * 0 = none) passes, checked every 64 rows.
 */
webimage_status png_shim_read_reduced(png_shim_reader *_Nonnull reader, uint32_t factor, void *_Nonnull pixels,
                                      size_t stride, uint64_t max_byte_count, uint64_t deadline_ns,
                                      webimage_error *_Nonnull error);

void png_shim_close(png_shim_reader *_Nullable reader);

/** An incremental decode (libpng's progressive reader). */
typedef struct png_shim_incremental png_shim_incremental;

/**
 * Starts an incremental decode; images above `max_pixel_count` (0 = none), or whose canvas
 * and the copy handed out need more than `max_byte_count` bytes (0 = none), fail with
 * TOO_LARGE when the header arrives, before anything that size is allocated.
 */
png_shim_incremental *_Nullable png_shim_incremental_create(bool sixteen_bit, uint64_t max_pixel_count,
                                                            uint64_t max_byte_count);

/** Feeds the next bytes. `is_final` with an unfinished image gives WEBIMAGE_STATUS_TRUNCATED_DATA. */
webimage_status png_shim_incremental_append(png_shim_incremental *_Nonnull decoder, const uint8_t *_Nullable bytes,
                                            size_t size, bool is_final, webimage_error *_Nonnull error);

/** The canvas so far: NULL until the header has been read. Rows not yet decoded are zero. */
typedef struct png_shim_canvas {
    const void *_Nullable pixels;
    size_t stride;
    png_shim_header header;
    int32_t sixteen_bit;
    /** Non-zero once the whole image has been decoded. */
    int32_t complete;
} png_shim_canvas;

void png_shim_incremental_canvas(const png_shim_incremental *_Nonnull decoder, png_shim_canvas *_Nonnull canvas);

void png_shim_incremental_destroy(png_shim_incremental *_Nullable decoder);

/**
 * Encodes RGBA pixels (8 or 16 bits, native endian). Stored as RGB when `keep_alpha` is 0.
 * `compression_level` is zlib's 0...9. libpng writes the file straight into `output` (empty,
 * with the allocator the bytes should come from); on failure `output` is discarded.
 */
webimage_status png_shim_encode(const void *_Nonnull pixels, uint32_t width, uint32_t height, size_t stride,
                                bool sixteen_bit, bool keep_alpha, int compression_level,
                                webimage_output_buffer *_Nonnull output, webimage_error *_Nonnull error);

/** zlib's CRC-32 of `size` bytes continuing `crc` (0 to start): the checksum of a PNG chunk. */
uint32_t png_shim_crc32(uint32_t crc, const uint8_t *_Nonnull bytes, size_t size);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif
