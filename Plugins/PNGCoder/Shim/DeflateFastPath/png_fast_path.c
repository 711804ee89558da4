/*
 * The whole-image fast path: the IDAT chunks are walked and CRC-checked in the caller's
 * bytes, the zlib stream is inflated in one libdeflate call (about twice as fast as
 * zlib), and the rows are unfiltered and expanded to RGBA here. Anything unexpected
 * makes it decline, and the caller decodes with libpng as before.
 *
 * Memory. When an output row is longer than a filtered row (filter byte included),
 * which holds for palette, gray, gray+alpha 8, RGB 8 and every RGBA16 output but
 * RGBA 16 to RGBA16, the stream is inflated into the TAIL of the output buffer and rows
 * are turned into pixels front to back through two scratch rows (decode_rows_from_tail):
 * no image-sized buffer is allocated. Otherwise (RGBA 8, RGBA 16, RGB 16 and gray+alpha
 * 16 to RGBA8, RGBA 16 to RGBA16) the stream is inflated into a scratch buffer the size
 * of the filtered image, freed before returning: measured twice as fast as libpng's
 * reader even so. A zlib stream split over several IDAT chunks is first joined into the
 * part of the output buffer the inflated data does not use, or into a buffer of its own
 * when it does not fit there; a single chunk is inflated where it lies.
 */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "png_fast_path.h"

/** Chunk lengths above this are invalid (PNG's 31-bit limit, enforced by libpng too). */
#define PNG_SHIM_MAX_CHUNK_LENGTH 0x7FFFFFFFu

static uint32_t read_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/** The consecutive IDAT chunks that hold the image data. */
typedef struct idat_run {
    /** The first chunk's length field. */
    const uint8_t *first;
    size_t chunk_count;
    /** The payloads' total size in bytes. */
    size_t data_size;
} idat_run;

/**
 * Walks the IDAT chunks that follow each other from `offset` (a chunk's length field)
 * and checks their CRCs. Returns 0 when there is none, or one is longer than the PNG
 * limit, runs past the end of the data or fails its CRC.
 */
static int find_idat_run(const uint8_t *bytes, size_t size, size_t offset, idat_run *run) {
    run->first = bytes + offset;
    run->chunk_count = 0;
    run->data_size = 0;
    while (size - offset >= 8 && memcmp(bytes + offset + 4, "IDAT", 4) == 0) {
        uint32_t length = read_be32(bytes + offset);
        if (length > PNG_SHIM_MAX_CHUNK_LENGTH || size - offset - 8 < (size_t)length + 4) return 0;
        const uint8_t *type_and_data = bytes + offset + 4;
        if (libdeflate_crc32(0, type_and_data, (size_t)length + 4) != read_be32(type_and_data + 4 + length)) return 0;
        run->chunk_count += 1;
        run->data_size += length;
        offset += (size_t)length + 12;
    }
    return run->chunk_count > 0;
}

/** Copies the payloads of `run`'s chunks, in order, to `destination`. */
static void gather_idat(const idat_run *run, uint8_t *destination) {
    const uint8_t *chunk = run->first;
    for (size_t i = 0; i < run->chunk_count; i++) {
        uint32_t length = read_be32(chunk);
        memcpy(destination, chunk + 8, length);
        destination += length;
        chunk += (size_t)length + 12;
    }
}

/** Bytes per pixel of the unfiltered data and of the output, and row sizes, with overflow checks. */
typedef struct fast_layout {
    /** Bytes of one filtered row, without its filter byte. */
    size_t row_bytes;
    /** height × (row_bytes + 1): what the zlib stream must inflate to. */
    size_t filtered_size;
    /** Bytes the filters step back by (1 for depths below 8). */
    unsigned filter_bpp;
    /** Bytes of one output row: width × 4 or width × 8. */
    size_t output_row_bytes;
    /** (height - 1) × stride + output_row_bytes: the part of the output buffer in use. */
    size_t output_span;
} fast_layout;

static int channel_count(int color_type) {
    switch (color_type) {
    case 0:
    case 3:
        return 1;
    case 2:
        return 3;
    case 4:
        return 2;
    case 6:
        return 4;
    default:
        return 0;
    }
}

static int plan_layout(const png_shim_header *header, int sixteen_bit, size_t stride, fast_layout *layout) {
    int channels = channel_count(header->color_type);
    if (channels == 0 || header->width == 0 || header->height == 0) return 0;
    uint64_t bits_per_pixel = (uint64_t)channels * (uint64_t)header->bit_depth;
    uint64_t row_bits = bits_per_pixel * header->width;
    layout->row_bytes = (size_t)((row_bits + 7) / 8);
    layout->filter_bpp = bits_per_pixel >= 8 ? (unsigned)(bits_per_pixel / 8) : 1;
    size_t output_pixel = sixteen_bit ? 8 : 4;
    if (__builtin_mul_overflow((size_t)header->height, layout->row_bytes + 1, &layout->filtered_size)) return 0;
    if (__builtin_mul_overflow((size_t)header->width, output_pixel, &layout->output_row_bytes)) return 0;
    if (stride < layout->output_row_bytes) return 0;
    size_t leading;
    if (__builtin_mul_overflow((size_t)header->height - 1, stride, &leading)) return 0;
    return !__builtin_add_overflow(leading, layout->output_row_bytes, &layout->output_span);
}

static void describe_rows(png_structp png, png_infop info, const png_shim_header *header, int sixteen_bit,
                          const uint32_t *table, png_shim_row_format *format) {
    memset(format, 0, sizeof *format);
    format->width = header->width;
    format->color_type = header->color_type;
    format->bit_depth = header->bit_depth;
    format->sixteen_output = sixteen_bit;
    format->table = table;
    png_color_16p key = NULL;
    int is_keyed = header->color_type == PNG_COLOR_TYPE_GRAY || header->color_type == PNG_COLOR_TYPE_RGB;
    if (is_keyed && png_get_valid(png, info, PNG_INFO_tRNS) != 0 && png_get_tRNS(png, info, NULL, NULL, &key) != 0 &&
        key != NULL) {
        format->has_key = 1;
        if (header->color_type == PNG_COLOR_TYPE_GRAY) {
            format->key[0] = key->gray;
        } else {
            format->key[0] = key->red;
            format->key[1] = key->green;
            format->key[2] = key->blue;
        }
    }
}

/**
 * Tail layout: the filtered image (height rows of row_bytes + 1) ends where the output
 * ends, at output_span, so it starts at tail = output_span - filtered_size. Output row
 * y covers [y × stride, y × stride + output_row_bytes); filtered rows still to be read
 * after row y start at tail + (y + 1) × (row_bytes + 1). Writing row y is safe when
 *     y × stride + output_row_bytes <= tail + (y + 1) × (row_bytes + 1)
 * which, with tail expanded, is (height - 1 - y) × (stride - (row_bytes + 1)) >= 0: true
 * for every y because stride >= output_row_bytes >= row_bytes + 1. Filtered row y itself
 * is copied into a scratch row before output row y is written, so it may be overwritten.
 * The same inequality at y = 0 with stride >= row_bytes + 1 gives tail >= 0.
 */
static int decode_rows_from_tail(const fast_layout *layout, const png_shim_header *header,
                                 const png_shim_row_format *format, int portable, uint8_t *pixels, size_t stride) {
    uint8_t *rows = calloc(2, layout->row_bytes);
    if (rows == NULL) return 0;
    uint8_t *previous = rows, *current = rows + layout->row_bytes;
    const uint8_t *filtered = pixels + (layout->output_span - layout->filtered_size);
    int ok = 1;
    for (uint32_t y = 0; y < header->height && ok; y++, filtered += layout->row_bytes + 1) {
        ok = png_shim_unfilter_row(filtered[0], current, filtered + 1, previous, layout->row_bytes, layout->filter_bpp,
                                   portable);
        if (ok) png_shim_expand_row(format, current, pixels + (size_t)y * stride);
        uint8_t *swap = previous;
        previous = current;
        current = swap;
    }
    free(rows);
    return ok;
}

/**
 * Scratch layout: rows are unfiltered in place in `filtered` and expanded to the output;
 * RGBA8 needs no expansion and is unfiltered straight into the output rows.
 */
static int decode_rows_from_scratch(const fast_layout *layout, const png_shim_header *header,
                                    const png_shim_row_format *format, int portable, uint8_t *filtered, uint8_t *pixels,
                                    size_t stride) {
    uint8_t *zero_row = calloc(1, layout->row_bytes);
    if (zero_row == NULL) return 0;
    int direct = header->color_type == PNG_COLOR_TYPE_RGB_ALPHA && header->bit_depth == 8;
    const uint8_t *previous = zero_row;
    int ok = 1;
    for (uint32_t y = 0; y < header->height && ok; y++, filtered += layout->row_bytes + 1) {
        uint8_t *out = pixels + (size_t)y * stride;
        uint8_t *unfiltered = direct ? out : filtered + 1;
        ok = png_shim_unfilter_row(filtered[0], unfiltered, filtered + 1, previous, layout->row_bytes,
                                   layout->filter_bpp, portable);
        if (ok && !direct) png_shim_expand_row(format, unfiltered, out);
        previous = unfiltered;
    }
    free(zero_row);
    return ok;
}

int png_shim_fast_read(png_structp png, png_infop info, const png_shim_session *session, const png_shim_header *header,
                       int sixteen_bit, int portable_filters, uint8_t *pixels, size_t stride) {
    fast_layout layout;
    if (header->interlaced || png_get_filter_type(png, info) != PNG_FILTER_TYPE_BASE) return 0;
    if (!plan_layout(header, sixteen_bit, stride, &layout)) return 0;
    /* png_read_info stops right after the first IDAT chunk's length and type. */
    if (session->offset < 8 || session->offset > session->size) return 0;
    idat_run run;
    if (!find_idat_run(session->bytes, session->size, session->offset - 8, &run)) return 0;

    int from_tail = layout.output_row_bytes > layout.row_bytes && layout.output_span >= layout.filtered_size;
    uint8_t *scratch = NULL;
    uint8_t *inflated;
    size_t free_front;
    if (from_tail) {
        inflated = pixels + (layout.output_span - layout.filtered_size);
        free_front = layout.output_span - layout.filtered_size;
    } else {
        scratch = malloc(layout.filtered_size);
        if (scratch == NULL) return 0;
        inflated = scratch;
        free_front = layout.output_span;
    }
    /* Several chunks are joined in the output buffer's unused front when they fit there. */
    const uint8_t *stream = run.first + 8;
    uint8_t *joined = NULL;
    if (run.chunk_count > 1) {
        joined = run.data_size <= free_front ? pixels : malloc(run.data_size);
        if (joined != NULL) gather_idat(&run, joined);
        stream = joined;
    }
    /*
     * Only a declared 32 KiB window (CINFO 7, what encoders write for all but tiny images):
     * zlib, as libpng runs it, rejects distances beyond a smaller declared window, which
     * libdeflate always allows, so such files would decode here and fail with libpng.
     */
    int ok = stream != NULL && run.data_size >= 2 && (stream[0] >> 4) == 7;
    struct libdeflate_decompressor *decompressor = ok ? libdeflate_alloc_decompressor() : NULL;
    ok = decompressor != NULL && libdeflate_zlib_decompress(decompressor, stream, run.data_size, inflated,
                                                            layout.filtered_size, NULL) == LIBDEFLATE_SUCCESS;
    libdeflate_free_decompressor(decompressor);
    if (joined != NULL && joined != pixels) free(joined);
    if (ok) {
        uint32_t table[256];
        if (header->color_type == PNG_COLOR_TYPE_PALETTE) png_shim_palette_table(png, info, table);
        png_shim_row_format format;
        describe_rows(png, info, header, sixteen_bit, table, &format);
        ok = from_tail ? decode_rows_from_tail(&layout, header, &format, portable_filters, pixels, stride)
                       : decode_rows_from_scratch(&layout, header, &format, portable_filters, scratch, pixels, stride);
    }
    free(scratch);
    return ok;
}
