/*
 * pnm.h — internals shared by the files of the PNM example plugin.
 *
 * Nothing here is part of the plugin ABI: every function is hidden so the shared
 * object exports only webimage_plugin_entry.
 */
#ifndef PNM_H
#define PNM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <webimage_plugin.h>

#if defined(__GNUC__)
#define PNM_INTERNAL __attribute__((visibility("hidden")))
#else
#define PNM_INTERNAL
#endif

/** What the text header of a PGM or PPM file says. */
typedef struct pnm_header {
    uint32_t width;
    uint32_t height;
    /** Largest sample value, 1...65535. Samples take two bytes when it exceeds 255. */
    uint32_t maxval;
    /** 1 for graymaps (P2, P5), 3 for pixmaps (P3, P6). */
    uint32_t channels;
    /** True for the plain formats P2 and P3, whose samples are decimal text. */
    bool ascii;
    /** Offset of the first raster byte. */
    size_t raster_offset;
} pnm_header;

/** True when `bytes` start like a P2, P3, P5 or P6 file. Never fails. */
PNM_INTERNAL bool pnm_looks_like_pnm(const uint8_t *bytes, size_t size);

/** Parses the header. CORRUPT_DATA when malformed, TRUNCATED_DATA when it ends early,
 *  UNSUPPORTED_FORMAT for other magic numbers (P1, P4, P7...). */
PNM_INTERNAL webimage_status pnm_read_header(const uint8_t *bytes, size_t size, pnm_header *header,
                                             webimage_error *error);

/** TRUNCATED_DATA when the bytes after the header are too few to hold the raster the
 *  header promises (exact for binary files, a lower bound for plain text). Cheap: lets
 *  the decoder refuse a tiny file that claims huge dimensions before allocating. */
PNM_INTERNAL webimage_status pnm_check_raster_size(size_t size, const pnm_header *header, webimage_error *error);

/**
 * Converts the raster into RGBA rows. `wide` selects RGBA16 (native-endian, samples
 * rescaled to 0...65535) instead of RGBA8 (rescaled to 0...255). Alpha is opaque.
 * The caller has checked pnm_check_raster_size and that `pixels` holds height rows
 * of `stride` bytes.
 */
PNM_INTERNAL webimage_status pnm_read_raster(const uint8_t *bytes, size_t size, const pnm_header *header, bool wide,
                                             uint8_t *pixels, size_t stride, webimage_error *error);

/** Encodes an RGBA8 or RGBA16 image as binary P6, alpha composited over a background. */
PNM_INTERNAL webimage_status pnm_write_p6(const webimage_host *host, const webimage_image_view *image,
                                          uint32_t background_rgba, webimage_buffer *output, webimage_error *error);

/** Like webimage_fail, with printf-style formatting. Returns `status`. */
PNM_INTERNAL webimage_status pnm_failf(webimage_error *error, webimage_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** `*out = a * b`; false (and *out untouched) when the product does not fit in size_t. */
static inline bool pnm_multiply(size_t a, size_t b, size_t *out) {
    if (a != 0 && b > SIZE_MAX / a) return false;
    *out = a * b;
    return true;
}

#endif /* PNM_H */
