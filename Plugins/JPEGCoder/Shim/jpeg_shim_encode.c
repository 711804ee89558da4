/* Encoding RGBA pixels to a baseline JPEG in memory. */
#include <stdlib.h>
#include <string.h>

#include "jpeg_shim_internal.h"

/** Composites one RGBA row (8 or 16 bits) over the background into packed RGB8. */
static void flatten_row(const uint8_t *source, uint32_t width, int sixteen_bit, const uint8_t background[3],
                        uint8_t *rgb) {
    for (uint32_t x = 0; x < width; x++) {
        uint32_t channels[4];
        if (sixteen_bit) {
            const uint16_t *pixel = (const uint16_t *)(const void *)(source + (size_t)x * 8);
            for (int c = 0; c < 4; c++) channels[c] = (pixel[c] * 255u + 32767u) / 65535u;
        } else {
            for (int c = 0; c < 4; c++) channels[c] = source[(size_t)x * 4 + c];
        }
        uint32_t alpha = channels[3];
        for (int c = 0; c < 3; c++) {
            rgb[(size_t)x * 3 + c] = (uint8_t)((channels[c] * alpha + background[c] * (255 - alpha) + 127) / 255);
        }
    }
}

/** Whether every pixel of 8-bit RGBA rows is opaque (alpha 255); read a word at a time. */
static int is_opaque(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    const uint64_t alpha = 0x000000FF000000FFu; /* bytes 3 and 7: the alpha of two pixels */
#else
    const uint64_t alpha = 0xFF000000FF000000u;
#endif
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + (size_t)y * stride;
        uint64_t all = alpha;
        uint32_t x = 0;
        for (; x + 2 <= width; x += 2) {
            uint64_t two;
            memcpy(&two, row + (size_t)x * 4, sizeof two);
            all &= two;
        }
        if ((all & alpha) != alpha || (x < width && row[(size_t)x * 4 + 3] != 0xFF)) return 0;
    }
    return 1;
}

/** A libjpeg destination manager that writes into a webimage_output_buffer. */
typedef struct buffer_destination {
    struct jpeg_destination_mgr manager;
    webimage_output_buffer *output;
} buffer_destination;

/** Makes room for at least one more byte and points libjpeg at the free space; errors out when full. */
static void offer_free_space(j_compress_ptr info) {
    buffer_destination *destination = (buffer_destination *)(void *)info->dest;
    webimage_output_buffer *output = destination->output;
    if (!webimage_output_buffer_reserve(output, 1)) {
        ((jpeg_shim_error_manager *)(void *)info->err)->forced_status = WEBIMAGE_STATUS_OUT_OF_MEMORY;
        ERREXIT1(info, JERR_OUT_OF_MEMORY, 0);
    }
    destination->manager.next_output_byte = output->bytes + output->size;
    destination->manager.free_in_buffer = output->capacity - output->size;
}

static void init_destination(j_compress_ptr info) { offer_free_space(info); }

/** Called when libjpeg filled all the free space: the whole block now holds output. */
static boolean empty_output_buffer(j_compress_ptr info) {
    buffer_destination *destination = (buffer_destination *)(void *)info->dest;
    destination->output->size = destination->output->capacity;
    offer_free_space(info);
    return TRUE;
}

static void term_destination(j_compress_ptr info) {
    buffer_destination *destination = (buffer_destination *)(void *)info->dest;
    destination->output->size = destination->output->capacity - destination->manager.free_in_buffer;
}

webimage_status jpeg_shim_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, bool sixteen_bit,
                                 int quality, uint32_t background_rgba, webimage_output_buffer *output,
                                 webimage_error *error) {
    if (width == 0 || height == 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "JPEG sides must be 1...65500 pixels");
    }
    uint8_t background[3] = {(uint8_t)(background_rgba >> 24), (uint8_t)(background_rgba >> 16),
                             (uint8_t)(background_rgba >> 8)};
    struct jpeg_compress_struct info;
    jpeg_shim_error_manager errors;
    buffer_destination destination = {
        .manager = {.init_destination = init_destination,
                    .empty_output_buffer = empty_output_buffer,
                    .term_destination = term_destination},
        .output = output,
    };
    /* Opaque 8-bit pixels go to libjpeg-turbo as they are (it skips the fourth byte); the
       others are composited over the background into a row of RGB first. */
    int as_is = !sixteen_bit && is_opaque(pixels, width, height, stride);
    uint8_t *volatile row = as_is ? NULL : malloc((size_t)width * 3);
    if (!as_is && row == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    jpeg_shim_use_error_manager((j_common_ptr)&info, &errors);
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&info);
        free(row);
        webimage_output_buffer_discard(output);
        return jpeg_shim_caught(&errors, error);
    }
    jpeg_create_compress(&info);
    info.dest = &destination.manager;
    info.image_width = width;
    info.image_height = height;
    info.input_components = as_is ? 4 : 3;
    info.in_color_space = as_is ? JCS_EXT_RGBX : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < height) {
        const uint8_t *source = (const uint8_t *)pixels + (size_t)info.next_scanline * stride;
        if (!as_is) flatten_row(source, width, sixteen_bit, background, row);
        JSAMPROW rows[1] = {as_is ? (JSAMPROW)(uintptr_t)source : row}; /* libjpeg only reads its input rows */
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(row);
    return WEBIMAGE_STATUS_OK;
}
