/*
 * Thumbnail decoding by row streaming: rows (or, for Adam7, the rows of each pass) are
 * folded into a grid of block sums the size of the output, so a huge PNG is reduced
 * without ever holding its full-size pixels.
 */
#include <stdlib.h>
#include <string.h>

#include "png_shim_internal.h"

void png_shim_reduced_size(const png_shim_header *header, uint32_t factor, uint32_t *width, uint32_t *height) {
    if (factor == 0) factor = 1;
    *width = (uint32_t)(((uint64_t)header->width + factor - 1) / factor);
    *height = (uint32_t)(((uint64_t)header->height + factor - 1) / factor);
}

/** Sums of one output pixel's block: colour weighted by alpha, alpha, and the pixel count. */
typedef struct block_sum {
    uint64_t red, green, blue, alpha;
    uint32_t count;
} block_sum;

/** Fills `blocks[i]` with the output column of the i-th pixel of a row (or of a pass row). */
static void map_columns(uint32_t *blocks, uint32_t count, uint32_t first_x, uint32_t x_step, uint32_t factor) {
    uint32_t block = first_x / factor, within = first_x % factor;
    for (uint32_t i = 0; i < count; i++) {
        blocks[i] = block;
        within += x_step;
        while (within >= factor) {
            within -= factor;
            block++;
        }
    }
}

static void add_row(block_sum *sums, const uint8_t *rgba, uint32_t count, const uint32_t *blocks) {
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *pixel = rgba + (size_t)i * 4;
        block_sum *sum = &sums[blocks[i]];
        uint32_t alpha = pixel[3];
        sum->red += (uint64_t)pixel[0] * alpha;
        sum->green += (uint64_t)pixel[1] * alpha;
        sum->blue += (uint64_t)pixel[2] * alpha;
        sum->alpha += alpha;
        sum->count += 1;
    }
}

static void write_means(const block_sum *sums, uint32_t width, uint32_t height, uint8_t *pixels, size_t stride) {
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *out = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++, out += 4) {
            const block_sum *sum = &sums[(size_t)y * width + x];
            if (sum->alpha == 0 || sum->count == 0) {
                memset(out, 0, 4);
                continue;
            }
            out[0] = (uint8_t)((sum->red + sum->alpha / 2) / sum->alpha);
            out[1] = (uint8_t)((sum->green + sum->alpha / 2) / sum->alpha);
            out[2] = (uint8_t)((sum->blue + sum->alpha / 2) / sum->alpha);
            out[3] = (uint8_t)((sum->alpha + sum->count / 2) / sum->count);
        }
    }
}

/** Bytes of libpng's row buffers for the widest row its transforms make (8 bytes a pixel). */
static uint64_t libpng_row_bytes(const png_shim_header *header) { return ((uint64_t)header->width * 8 + 64) * 2; }

uint64_t png_shim_reduced_working_bytes(const png_shim_header *header, uint32_t factor) {
    uint32_t out_width = 0, out_height = 0;
    png_shim_reduced_size(header, factor, &out_width, &out_height);
    uint64_t sums = (uint64_t)out_width * out_height * sizeof(block_sum);
    uint64_t rows = (uint64_t)header->width * (4 + 1 + sizeof(uint32_t));
    return sums + rows + libpng_row_bytes(header);
}

webimage_status png_shim_read_reduced(png_shim_reader *reader, uint32_t factor, void *pixels, size_t stride,
                                      uint64_t max_byte_count, uint64_t deadline_ns, webimage_error *error) {
    png_structp png = png_shim_reader_png(reader);
    png_infop info = png_shim_reader_info(reader);
    const png_shim_header *header = png_shim_reader_header(reader);
    if (factor == 0) factor = 1;
    uint32_t out_width = 0, out_height = 0;
    png_shim_reduced_size(header, factor, &out_width, &out_height);
    uint64_t needed = png_shim_reduced_working_bytes(header, factor) + (uint64_t)out_width * out_height * 4;
    webimage_status limit = webimage_check_byte_limit(needed, max_byte_count, "a row-streamed thumbnail", error);
    if (limit != WEBIMAGE_STATUS_OK) return limit;
    int palette = header->color_type == PNG_COLOR_TYPE_PALETTE;
    block_sum *sums = calloc((size_t)out_width * out_height, sizeof *sums);
    uint8_t *row = malloc((size_t)header->width * 4);
    uint8_t *indices = palette ? malloc(header->width) : NULL;
    uint32_t *blocks = malloc((size_t)header->width * sizeof *blocks);
    if (sums == NULL || row == NULL || blocks == NULL || (palette && indices == NULL)) {
        free(sums);
        free(row);
        free(indices);
        free(blocks);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        free(sums);
        free(row);
        free(indices);
        free(blocks);
        return png_shim_caught(png_shim_reader_session(reader), error);
    }
    uint32_t table[256];
    png_shim_set_rgba_transforms(png, header, 0, 1);
    png_read_update_info(png, info);
    if (palette) png_shim_palette_table(png, info, table);
    int passes = header->interlaced ? PNG_INTERLACE_ADAM7_PASSES : 1;
    for (int pass = 0; pass < passes; pass++) {
        uint32_t columns = header->interlaced ? PNG_PASS_COLS(header->width, pass) : header->width;
        uint32_t rows = header->interlaced ? PNG_PASS_ROWS(header->height, pass) : header->height;
        if (columns == 0 || rows == 0) continue;
        uint32_t first_x = header->interlaced ? PNG_PASS_START_COL(pass) : 0;
        uint32_t x_step = header->interlaced ? 1u << PNG_PASS_COL_SHIFT(pass) : 1;
        map_columns(blocks, columns, first_x, x_step, factor);
        for (uint32_t pass_row = 0; pass_row < rows; pass_row++) {
            if (pass_row % 64 == 63 && webimage_deadline_passed(deadline_ns)) {
                free(sums);
                free(row);
                free(indices);
                free(blocks);
                return webimage_fail_deadline(error);
            }
            uint32_t y = header->interlaced ? PNG_ROW_FROM_PASS_ROW(pass_row, pass) : pass_row;
            if (palette) {
                png_read_row(png, indices, NULL);
                png_shim_expand_indices(indices, columns, table, row);
            } else {
                png_read_row(png, row, NULL);
            }
            add_row(&sums[(size_t)(y / factor) * out_width], row, columns, blocks);
        }
    }
    write_means(sums, out_width, out_height, pixels, stride);
    free(sums);
    free(row);
    free(indices);
    free(blocks);
    return WEBIMAGE_STATUS_OK;
}
