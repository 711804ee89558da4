/* Incremental decoding with libpng's progressive reader: bytes go in as they arrive, rows come out. */
#include <stdlib.h>
#include <string.h>

#include "png_shim_internal.h"

struct png_shim_incremental {
    png_shim_session session;
    png_structp png;
    png_infop info;
    uint64_t max_pixel_count;
    uint64_t max_byte_count;
    int sixteen_bit_requested;
    png_shim_canvas canvas;
    uint8_t *pixels;
    int use_table;
    uint32_t table[256];
    /** Set after the first error: every later call returns it again. */
    webimage_status failure;
    char failure_message[PNG_SHIM_MESSAGE_SIZE];
};

static void on_info(png_structp png, png_infop info) {
    png_shim_incremental *decoder = png_get_progressive_ptr(png);
    png_shim_header header;
    png_shim_fill_header(png, info, &header);
    char message[PNG_SHIM_MESSAGE_SIZE];
    webimage_error limit = {message, sizeof message};
    if (webimage_check_pixel_limit(header.width, header.height, decoder->max_pixel_count, &limit) !=
        WEBIMAGE_STATUS_OK) {
        decoder->session.forced_status = WEBIMAGE_STATUS_TOO_LARGE;
        png_error(png, message);
    }
    /* The canvas, and the copy of it the host hands out as the image so far. */
    uint64_t canvas_bytes = (uint64_t)header.width * header.height * (header.bit_depth == 16 ? 8 : 4);
    if (webimage_check_byte_limit(canvas_bytes * 2, decoder->max_byte_count, "the canvas and its copy", &limit) !=
        WEBIMAGE_STATUS_OK) {
        decoder->session.forced_status = WEBIMAGE_STATUS_TOO_LARGE;
        png_error(png, message);
    }
    decoder->use_table = header.color_type == PNG_COLOR_TYPE_PALETTE && !header.interlaced;
    int sixteen = png_shim_set_rgba_transforms(png, &header, decoder->sixteen_bit_requested, decoder->use_table);
    if (header.interlaced) png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (decoder->use_table) png_shim_palette_table(png, info, decoder->table);
    size_t stride = (size_t)header.width * (sixteen ? 8 : 4);
    decoder->pixels = calloc(header.height, stride);
    if (decoder->pixels == NULL) {
        decoder->session.forced_status = WEBIMAGE_STATUS_OUT_OF_MEMORY;
        png_error(png, "out of memory for the image");
    }
    decoder->canvas.pixels = decoder->pixels;
    decoder->canvas.stride = stride;
    decoder->canvas.header = header;
    decoder->canvas.sixteen_bit = sixteen;
}

static void on_row(png_structp png, png_bytep new_row, png_uint_32 row_number, int pass) {
    (void)pass;
    png_shim_incremental *decoder = png_get_progressive_ptr(png);
    if (new_row == NULL || row_number >= decoder->canvas.header.height) return;
    uint8_t *row = decoder->pixels + (size_t)row_number * decoder->canvas.stride;
    if (decoder->use_table) {
        png_shim_expand_indices(new_row, decoder->canvas.header.width, decoder->table, row);
    } else {
        png_progressive_combine_row(png, row, new_row);
    }
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    png_shim_incremental *decoder = png_get_progressive_ptr(png);
    decoder->canvas.complete = 1;
}

png_shim_incremental *png_shim_incremental_create(bool sixteen_bit, uint64_t max_pixel_count, uint64_t max_byte_count) {
    png_shim_incremental *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->sixteen_bit_requested = sixteen_bit;
    decoder->max_pixel_count = max_pixel_count;
    decoder->max_byte_count = max_byte_count;
    decoder->png = png_shim_create_read(&decoder->session);
    if (decoder->png != NULL) decoder->info = png_create_info_struct(decoder->png);
    if (decoder->png == NULL || decoder->info == NULL) {
        png_shim_incremental_destroy(decoder);
        return NULL;
    }
    png_set_progressive_read_fn(decoder->png, decoder, on_info, on_row, on_end);
    return decoder;
}

static webimage_status remember(png_shim_incremental *decoder, webimage_status status, const char *message,
                                webimage_error *error) {
    decoder->failure = status;
    strncpy(decoder->failure_message, message, sizeof decoder->failure_message - 1);
    return webimage_fail(error, status, message);
}

webimage_status png_shim_incremental_append(png_shim_incremental *decoder, const uint8_t *bytes, size_t size,
                                            bool is_final, webimage_error *error) {
    if (decoder->failure != WEBIMAGE_STATUS_OK) return webimage_fail(error, decoder->failure, decoder->failure_message);
    if (setjmp(png_jmpbuf(decoder->png))) {
        webimage_status status = png_shim_caught(&decoder->session, error);
        return remember(decoder, status, error->message_capacity > 0 ? error->message : "", error);
    }
    if (bytes != NULL && size > 0 && !decoder->canvas.complete) {
        png_process_data(decoder->png, decoder->info, (png_bytep)bytes, size);
    }
    if (is_final && !decoder->canvas.complete) {
        return remember(decoder, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends before the image is complete", error);
    }
    return WEBIMAGE_STATUS_OK;
}

void png_shim_incremental_canvas(const png_shim_incremental *decoder, png_shim_canvas *canvas) {
    *canvas = decoder->canvas;
}

void png_shim_incremental_destroy(png_shim_incremental *decoder) {
    if (decoder == NULL) return;
    if (decoder->png != NULL) {
        png_destroy_read_struct(&decoder->png, decoder->info != NULL ? &decoder->info : NULL, NULL);
    }
    free(decoder->pixels);
    free(decoder);
}
