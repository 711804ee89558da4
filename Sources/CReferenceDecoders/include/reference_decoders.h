/*
 * reference_decoders.h — plain libpng / libjpeg-turbo decoders for comparison.
 *
 * Benchmarks and pixel-parity tests compare WebImage's coders against these. They call
 * the C libraries directly, the way a C program would, and share no code with WebImage.
 *
 * Conventions for every function:
 *  - Returns REFERENCE_OK (0) or one of the REFERENCE_ERROR_* codes; on failure
 *    reference_last_error() describes why.
 *  - Output is tightly packed rows (stride = width × bytes per pixel), top row first,
 *    straight (not premultiplied) alpha. Nothing is allocated for the caller.
 *  - No colour management: no gamma, ICC or EXIF orientation is applied.
 *  - Functions are reentrant; the error message is per thread.
 */
#ifndef REFERENCE_DECODERS_H
#define REFERENCE_DECODERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Success. */
#define REFERENCE_OK 0
/** A NULL pointer, empty input or a scale factor of 0. */
#define REFERENCE_ERROR_ARGUMENT 1
/** The bytes are not a PNG (or JPEG) file at all. */
#define REFERENCE_ERROR_NOT_THIS_FORMAT 2
/** The library rejected the data (corrupt, unsupported colour space, ...). */
#define REFERENCE_ERROR_DECODE 3
/** The data ends before the image is complete. */
#define REFERENCE_ERROR_TRUNCATED 4
/** `out_size` is smaller than width × height × bytes per pixel. */
#define REFERENCE_ERROR_BUFFER_TOO_SMALL 5

/** Why the last failing call on this thread failed ("" when none has). */
const char *reference_last_error(void);

/* ------------------------------------------------------------------ PNG (libpng 1.6) */

/**
 * Reads the PNG header. `bit_depth` (may be NULL) receives the file's bits per sample:
 * 1, 2, 4, 8 or 16.
 */
int reference_png_probe(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height, int *bit_depth);

/**
 * Decodes a whole PNG to RGBA into `out`, which must hold width × height × 4 bytes
 * (`sixteen_bit` == 0) or width × height × 8 bytes (`sixteen_bit` != 0).
 *
 * libpng transforms used: png_set_expand (palette, low-bit gray and tRNS become 8-bit
 * RGB(A)), png_set_gray_to_rgb, png_set_filler(PNG_FILLER_AFTER) for an opaque alpha
 * where the file has none, png_set_interlace_handling.
 *  - 8-bit output: 16-bit files are reduced with png_set_scale_16, which ROUNDS
 *    (v × 255 / 65535 to nearest), not png_set_strip_16, which truncates.
 *  - 16-bit output: samples are native-endian (png_set_swap on little-endian hosts);
 *    files with 8 bits or fewer are widened with png_set_expand_16 (v × 257).
 * The chunks after the image data are read too (png_read_end), so a file cut anywhere
 * before IEND fails with REFERENCE_ERROR_TRUNCATED.
 */
int reference_png_decode(const uint8_t *bytes, size_t size, int sixteen_bit, void *out, size_t out_size);

/**
 * Decodes a whole PNG to RGBA8 with libpng's simplified API (png_image, PNG_FORMAT_RGBA),
 * the "raw C" path of the team's performance anchors. The simplified API linearises and
 * re-encodes 16-bit data, so its pixels for 16-bit files differ from reference_png_decode;
 * this function is for timing, not for pixel parity.
 */
int reference_png_decode_simplified(const uint8_t *bytes, size_t size, void *out, size_t out_size);

/* ------------------------------------------------------------------ JPEG (libjpeg-turbo) */

/**
 * Reads the JPEG header and reports the output size libjpeg produces when decoding at
 * scale_num / scale_denom (1, 1 for full size). libjpeg-turbo supports the scales
 * M/8 for M = 1...16 and rounds a requested scale up to the next of those; the size is
 * then ceil(stored size × M / 8).
 */
int reference_jpeg_probe(const uint8_t *bytes, size_t size, unsigned scale_num, unsigned scale_denom, uint32_t *width,
                         uint32_t *height);

/**
 * Decodes a JPEG at full size to RGBA8 (JCS_EXT_RGBA) into `out`, which must hold
 * width × height × 4 bytes. All other libjpeg settings are the defaults (JDCT_ISLOW,
 * fancy upsampling), so R, G, B equal `djpeg -pnm` output; alpha is 255. Grayscale
 * files come out as R = G = B. CMYK/YCCK files fail with REFERENCE_ERROR_DECODE.
 * Data that ends early (libjpeg warning JWRN_JPEG_EOF) fails with REFERENCE_ERROR_TRUNCATED;
 * other recoverable corruption warnings are tolerated, as djpeg tolerates them.
 */
int reference_jpeg_decode(const uint8_t *bytes, size_t size, void *out, size_t out_size);

/**
 * Like reference_jpeg_decode, with libjpeg's DCT scaling (scale_num / scale_denom,
 * default DCT method). `out` must hold the size reference_jpeg_probe reports for the
 * same scale × 4 bytes. Matches `djpeg -scale M/N -pnm`.
 */
int reference_jpeg_decode_scaled(const uint8_t *bytes, size_t size, unsigned scale_num, unsigned scale_denom, void *out,
                                 size_t out_size);

/* ------------------------------------------------------------------ GIF (giflib 5) */

/** Reads the GIF's logical screen size and counts its frames (DGifSlurp). */
int reference_gif_probe(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height, uint32_t *frames);

/**
 * Decodes a GIF with DGifSlurp and composites frames 0 ... `last_frame` onto a transparent
 * canvas of the logical screen size in `out` (width × height × 4 bytes): each frame's
 * transparent index skipped, disposal background clearing to transparent and disposal
 * previous restoring the canvas, as browsers do. `out` then holds frame `last_frame`.
 */
int reference_gif_decode(const uint8_t *bytes, size_t size, uint32_t last_frame, void *out, size_t out_size);

/* ------------------------------------------------------------------ WebP (libwebp, libwebpdemux) */

/** Canvas size and frame count (1 for a still image) of a WebP file. */
int reference_webp_probe(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height, uint32_t *frames);

/** `WebPDecodeRGBAInto` over the whole file into `out` (width × height × 4 bytes, full size). */
int reference_webp_decode(const uint8_t *bytes, size_t size, void *out, size_t out_size);

/**
 * `WebPAnimDecoder` (straight RGBA) over the whole file: the canvas of frame `index` copied
 * into `out` (canvas width × height × 4 bytes) and, when `timestamp` is not NULL, the frame's
 * end timestamp in milliseconds.
 */
int reference_webp_animation_frame(const uint8_t *bytes, size_t size, uint32_t index, void *out, size_t out_size,
                                   int32_t *timestamp);

/* ------------------------------------------------------------------ HEIF (libheif: HEIC, AVIF) */

/** Size of the primary image as shown (after the file's rotation, mirroring and cropping). */
int reference_heif_probe(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height);

/**
 * Decodes the primary image with heif_context_read_from_memory_without_copy and
 * heif_decode_image to interleaved RGBA8 (libheif's own colour conversion; transformations
 * and alpha applied) and copies its rows into `out` (width × height × 4 bytes). HEVC goes
 * through libheif's built-in libde265 plugin, chosen by its id ("libde265"), so a faster
 * decoder plugin registered in the same process (WebImage's HEIF plugin registers one) is
 * not used for the primary image; AV1 goes through libheif's default AV1 decoder.
 */
int reference_heif_decode(const uint8_t *bytes, size_t size, void *out, size_t out_size);

#ifdef __cplusplus
}
#endif

#endif /* REFERENCE_DECODERS_H */
