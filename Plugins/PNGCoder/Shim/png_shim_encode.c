/* Encoding RGBA pixels to PNG in memory. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "png_shim_internal.h"

/** What the write callback appends to: the output and whether it ran out of memory. */
typedef struct memory_sink {
    webimage_output_buffer *output;
    int failed;
} memory_sink;

static void write_to_memory(png_structp png, png_bytep data, size_t count) {
    memory_sink *sink = png_get_io_ptr(png);
    if (!webimage_output_buffer_append(sink->output, data, count)) {
        sink->failed = 1;
        png_error(png, "out of memory for the encoded PNG");
    }
}

static void flush_memory(png_structp png) { (void)png; }

static void on_write_error(png_structp png, png_const_charp message) {
    png_shim_session *session = png_get_error_ptr(png);
    strncpy(session->message, message, PNG_SHIM_MESSAGE_SIZE - 1);
    png_longjmp(png, 1);
}

static void on_write_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

webimage_status png_shim_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, bool sixteen_bit,
                                bool keep_alpha, int compression_level, webimage_output_buffer *output,
                                webimage_error *error) {
    png_shim_session session;
    memset(&session, 0, sizeof session);
    memory_sink sink = {output, 0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &session, on_write_error, on_write_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, info != NULL ? &info : NULL);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory creating the PNG writer");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        webimage_output_buffer_discard(output);
        return webimage_fail(error, sink.failed ? WEBIMAGE_STATUS_OUT_OF_MEMORY : WEBIMAGE_STATUS_CORRUPT_DATA,
                             session.message);
    }
    png_set_write_fn(png, &sink, write_to_memory, flush_memory);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, width, height, sixteen_bit ? 16 : 8,
                 keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (!keep_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (sixteen_bit) png_set_swap(png);
#endif
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)pixels + (size_t)y * stride);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return WEBIMAGE_STATUS_OK;
}

uint32_t png_shim_crc32(uint32_t crc, const uint8_t *bytes, size_t size) {
    return (uint32_t)crc32(crc, bytes, (uInt)size);
}
