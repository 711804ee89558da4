/* Shared by the PNG shim's files: error plumbing and the in-memory byte source. */
#ifndef WEBIMAGE_PNG_SHIM_INTERNAL_H
#define WEBIMAGE_PNG_SHIM_INTERNAL_H

#include <png.h>

#include "png_shim.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/** Size of the message buffer every libpng session keeps for its error callback. */
#define PNG_SHIM_MESSAGE_SIZE 256

/**
 * The most pixels a side may have: libpng's own default user limit (PNG_USER_WIDTH_MAX),
 * kept for every reader. Wider or taller headers fail with TOO_LARGE before libpng sizes
 * a row buffer (a row of 1,000,000 RGBA16 pixels is 8 MB).
 */
#define PNG_SHIM_MAX_SIDE 1000000u

/** Per-session state reachable from libpng's callbacks. */
typedef struct png_shim_session {
    char message[PNG_SHIM_MESSAGE_SIZE];
    /** Set when the byte source ran out (the error is then a truncation). */
    int truncated;
    /** A status chosen by the shim itself before it raised the error (0 = none). */
    webimage_status forced_status;
    const uint8_t *bytes;
    size_t size;
    size_t offset;
} png_shim_session;

/**
 * Creates a read struct whose errors land in `session` (libpng then longjmps), with
 * PNG_SHIM_MAX_SIDE as libpng's user limits: a header over them is TOO_LARGE.
 */
png_structp png_shim_create_read(png_shim_session *session);

/** Makes libpng read from `session`'s bytes. */
void png_shim_use_memory_source(png_structp png, png_shim_session *session);

/** The status and message for an error caught by setjmp in `session`. */
webimage_status png_shim_caught(const png_shim_session *session, webimage_error *error);

/** Fills `header` from libpng's info struct (after png_read_info). */
void png_shim_fill_header(png_structp png, png_infop info, png_shim_header *header);

/** The 256-entry RGBA8 table for a palette image (indices past the palette are opaque black). */
void png_shim_palette_table(png_structp png, png_infop info, uint32_t table[256]);

/**
 * Sets the transforms that turn any PNG into RGBA (8 or 16 bits). With `palette_indices`
 * a palette image is left as one index byte per pixel instead, for png_shim_palette_table.
 * Returns non-zero when the output is 16 bits per channel.
 */
int png_shim_set_rgba_transforms(png_structp png, const png_shim_header *header, int sixteen_bit, int palette_indices);

/** Expands `count` palette indices to RGBA8 through `table`. */
void png_shim_expand_indices(const uint8_t *indices, uint32_t count, const uint32_t table[256], uint8_t *rgba);

/** Accessors the reduced decode uses on an open reader. */
png_structp png_shim_reader_png(png_shim_reader *reader);
png_infop png_shim_reader_info(png_shim_reader *reader);
png_shim_session *png_shim_reader_session(png_shim_reader *reader);
const png_shim_header *png_shim_reader_header(const png_shim_reader *reader);

#pragma GCC visibility pop

#endif
