/* Whole-image decoding from memory: header, full RGBA decode (libdeflate fast path first: DeflateFastPath/png_fast_path.c). */
#include <stdlib.h>
#include <string.h>

#include "DeflateFastPath/png_fast_path.h"
#include "png_shim_internal.h"

struct png_shim_reader {
    png_shim_session session;
    png_structp png;
    png_infop info;
    png_shim_header header;
    int sixteen_bit;
};

static const char *const not_png_message = "not a PNG file (the signature is missing)";

webimage_status png_shim_read_header(const uint8_t *bytes, size_t size, png_shim_header *header,
                                     webimage_error *error) {
    png_shim_reader *reader = NULL;
    int sixteen = 0;
    webimage_status status = png_shim_open(bytes, size, 0, &reader, header, &sixteen, error);
    png_shim_close(reader);
    return status;
}

webimage_status png_shim_open(const uint8_t *bytes, size_t size, bool sixteen_bit, png_shim_reader **out,
                              png_shim_header *header, int *sixteen_bit_output, webimage_error *error) {
    *out = NULL;
    if (size < 8 || png_sig_cmp(bytes, 0, 8) != 0) {
        if (size < 8 && png_sig_cmp(bytes, 0, size) == 0) {
            return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends inside the PNG signature");
        }
        return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, not_png_message);
    }
    png_shim_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    reader->session.bytes = bytes;
    reader->session.size = size;
    reader->png = png_shim_create_read(&reader->session);
    if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
    if (reader->png == NULL || reader->info == NULL) {
        png_shim_close(reader);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory creating the PNG reader");
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        webimage_status status = png_shim_caught(&reader->session, error);
        png_shim_close(reader);
        return status;
    }
    png_shim_use_memory_source(reader->png, &reader->session);
    png_read_info(reader->png, reader->info);
    png_shim_fill_header(reader->png, reader->info, &reader->header);
    reader->sixteen_bit = sixteen_bit && reader->header.bit_depth == 16;
    *header = reader->header;
    *sixteen_bit_output = reader->sixteen_bit;
    *out = reader;
    return WEBIMAGE_STATUS_OK;
}

/**
 * Reads Adam7 pass by pass without libpng's interlace handling (which widens every pass
 * row to the full width and visits every row seven times) and scatters each pass row's
 * pixels straight to their places in the output.
 */
static void read_interlaced(png_structp png, const png_shim_header *header, int palette, const uint32_t table[256],
                            uint8_t *indices, uint8_t *row, size_t pixel_size, uint8_t *pixels, size_t stride) {
    for (int pass = 0; pass < PNG_INTERLACE_ADAM7_PASSES; pass++) {
        uint32_t columns = PNG_PASS_COLS(header->width, pass);
        uint32_t rows = PNG_PASS_ROWS(header->height, pass);
        if (columns == 0 || rows == 0) continue;
        uint32_t first_x = PNG_PASS_START_COL(pass);
        uint32_t x_step = 1u << PNG_PASS_COL_SHIFT(pass);
        for (uint32_t pass_row = 0; pass_row < rows; pass_row++) {
            if (palette) {
                png_read_row(png, indices, NULL);
                png_shim_expand_indices(indices, columns, table, row);
            } else {
                png_read_row(png, row, NULL);
            }
            uint8_t *out = pixels + (size_t)PNG_ROW_FROM_PASS_ROW(pass_row, pass) * stride + first_x * pixel_size;
            const uint8_t *in = row;
            if (pixel_size == 4) {
                for (uint32_t i = 0; i < columns; i++, in += 4, out += x_step * 4) memcpy(out, in, 4);
            } else {
                for (uint32_t i = 0; i < columns; i++, in += 8, out += x_step * 8) memcpy(out, in, 8);
            }
        }
    }
}

webimage_status png_shim_read_image(png_shim_reader *reader, void *pixels, size_t stride, webimage_error *error) {
    return png_shim_read_image_using(reader, pixels, stride, PNG_SHIM_DECODER_AUTOMATIC, NULL, error);
}

webimage_status png_shim_read_image_using(png_shim_reader *reader, void *pixels, size_t stride,
                                          png_shim_decoder decoder, int32_t *used_fast_path, webimage_error *error) {
    png_structp png = reader->png;
    const png_shim_header *header = &reader->header;
    int fast = decoder != PNG_SHIM_DECODER_LIBPNG &&
               png_shim_fast_read(png, reader->info, &reader->session, header, reader->sixteen_bit,
                                  decoder == PNG_SHIM_DECODER_PORTABLE_FILTERS, pixels, stride);
    if (used_fast_path != NULL) *used_fast_path = fast;
    if (fast) return WEBIMAGE_STATUS_OK;
    int palette = header->color_type == PNG_COLOR_TYPE_PALETTE;
    size_t pixel_size = reader->sixteen_bit ? 8 : 4;
    uint8_t *indices = palette ? malloc(header->width) : NULL;
    uint8_t *row = header->interlaced ? malloc((size_t)header->width * pixel_size) : NULL;
    if ((palette && indices == NULL) || (header->interlaced && row == NULL)) {
        free(indices);
        free(row);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        free(indices);
        free(row);
        return png_shim_caught(&reader->session, error);
    }
    uint32_t table[256];
    png_shim_set_rgba_transforms(png, header, reader->sixteen_bit, palette);
    png_read_update_info(png, reader->info);
    if (palette) png_shim_palette_table(png, reader->info, table);
    if (header->interlaced) {
        read_interlaced(png, header, palette, table, indices, row, pixel_size, pixels, stride);
    } else if (palette) {
        for (uint32_t y = 0; y < header->height; y++) {
            png_read_row(png, indices, NULL);
            png_shim_expand_indices(indices, header->width, table, (uint8_t *)pixels + (size_t)y * stride);
        }
    } else {
        for (uint32_t y = 0; y < header->height; y++) png_read_row(png, (png_bytep)pixels + (size_t)y * stride, NULL);
    }
    free(indices);
    free(row);
    return WEBIMAGE_STATUS_OK;
}

void png_shim_close(png_shim_reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, reader->info != NULL ? &reader->info : NULL, NULL);
    free(reader);
}

png_structp png_shim_reader_png(png_shim_reader *reader) { return reader->png; }
png_infop png_shim_reader_info(png_shim_reader *reader) { return reader->info; }
png_shim_session *png_shim_reader_session(png_shim_reader *reader) { return &reader->session; }
const png_shim_header *png_shim_reader_header(const png_shim_reader *reader) { return &reader->header; }
