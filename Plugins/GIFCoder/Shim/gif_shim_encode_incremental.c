/* Encoding a GIF frame by frame: each frame is quantised and written as it is added. */
#include <stdlib.h>

#include "gif_shim_internal.h"

struct gif_shim_encoder {
    GifFileType *gif;
    gif_shim_planes planes;
    ColorMapObject *colors;
    webimage_output_buffer output;
    uint32_t width, height, expected, added;
    int closed;
};

static void *allocate(void *context, size_t size, size_t alignment) {
    (void)context;
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    return aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
}

static void deallocate(void *context, void *pointer) {
    (void)context;
    free(pointer);
}

webimage_status gif_shim_encoder_create(uint32_t width, uint32_t height, uint32_t frame_count, uint32_t loop_count,
                                        gif_shim_encoder **out, webimage_error *error) {
    *out = NULL;
    if (frame_count == 0 || width == 0 || height == 0 || width > 65535 || height > 65535) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                             "GIF needs 1...65535 pixels per side and a frame");
    }
    gif_shim_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    size_t pixels = (size_t)width * height;
    encoder->planes = (gif_shim_planes){malloc(pixels), malloc(pixels), malloc(pixels), malloc(pixels)};
    encoder->colors = GifMakeMapObject(256, NULL);
    encoder->output = webimage_output_buffer_make((webimage_allocator){NULL, allocate, deallocate});
    encoder->width = width;
    encoder->height = height;
    encoder->expected = frame_count;
    if (encoder->planes.red == NULL || encoder->planes.green == NULL || encoder->planes.blue == NULL ||
        encoder->planes.indices == NULL || encoder->colors == NULL) {
        gif_shim_encoder_destroy(encoder);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    int code = 0;
    encoder->gif = EGifOpen(&encoder->output, gif_shim_write_to_memory, &code);
    if (encoder->gif == NULL) {
        gif_shim_encoder_destroy(encoder);
        return gif_shim_giflib_error(error, code, 0, "starting the encoder");
    }
    EGifSetGifVersion(encoder->gif, true);
    if (EGifPutScreenDesc(encoder->gif, (int)width, (int)height, 8, 0, NULL) == GIF_ERROR ||
        (frame_count > 1 && !gif_shim_put_loop_extension(encoder->gif, loop_count))) {
        webimage_status status = gif_shim_giflib_error(error, encoder->gif->Error, 0, "writing the header");
        gif_shim_encoder_destroy(encoder);
        return status;
    }
    *out = encoder;
    return WEBIMAGE_STATUS_OK;
}

webimage_status gif_shim_encoder_add(gif_shim_encoder *encoder, const gif_shim_frame *frame, webimage_error *error) {
    if (encoder->closed || encoder->added >= encoder->expected) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "more frames than announced");
    }
    webimage_status status = gif_shim_put_frame(encoder->gif, frame, encoder->width, encoder->height, encoder->planes,
                                                encoder->colors, error);
    if (status == WEBIMAGE_STATUS_OK) encoder->added += 1;
    return status;
}

webimage_status gif_shim_encoder_finish(gif_shim_encoder *encoder, const uint8_t **bytes, size_t *size,
                                        webimage_error *error) {
    *bytes = NULL;
    *size = 0;
    if (encoder->closed || encoder->added != encoder->expected) {
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "%u of %u frames were added", encoder->added,
                              encoder->expected);
    }
    int code = 0;
    encoder->closed = 1;
    int closed = EGifCloseFile(encoder->gif, &code);
    encoder->gif = NULL;
    if (closed == GIF_ERROR) return gif_shim_giflib_error(error, code, 0, "finishing the file");
    *bytes = encoder->output.bytes;
    *size = encoder->output.size;
    return WEBIMAGE_STATUS_OK;
}

void gif_shim_encoder_destroy(gif_shim_encoder *encoder) {
    if (encoder == NULL) return;
    int code = 0;
    if (encoder->gif != NULL) EGifCloseFile(encoder->gif, &code);
    GifFreeMapObject(encoder->colors);
    free(encoder->planes.red);
    free(encoder->planes.green);
    free(encoder->planes.blue);
    free(encoder->planes.indices);
    webimage_output_buffer_discard(&encoder->output);
    free(encoder);
}
