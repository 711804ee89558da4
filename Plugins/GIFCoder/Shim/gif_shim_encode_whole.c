/* Encoding a whole (possibly animated) GIF at once from RGBA frames with giflib's quantiser, and
 * the writer, loop extension and frame writing that the incremental encoder
 * (gif_shim_encode_incremental.c) shares. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gif_shim_internal.h"

int gif_shim_write_to_memory(GifFileType *gif, const GifByteType *data, int length) {
    webimage_output_buffer *output = gif->UserData;
    return length >= 0 && webimage_output_buffer_append(output, data, (size_t)length) ? length : 0;
}

/**
 * Index reserved for transparent pixels when a frame has any. Every frame covers the whole
 * canvas and is disposed to background, so a transparent pixel never shows the frame before.
 */
#define TRANSPARENT_INDEX 255

/**
 * giflib's quantiser sorts colours on an axis it keeps in a process-wide variable, so two
 * quantisations at once can sort on each other's axis and write a different palette. Every
 * call goes through this lock; the rest of the encoder runs in parallel.
 */
static pthread_mutex_t quantiser_lock = PTHREAD_MUTEX_INITIALIZER;

/** Quantises one RGBA frame into `planes.indices` and `colors`; returns whether it has transparency. */
static int quantise(const gif_shim_frame *frame, uint32_t width, uint32_t height, gif_shim_planes planes,
                    ColorMapObject *colors, int *failed) {
    int transparent = 0;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = (const uint8_t *)frame->pixels + (size_t)y * frame->stride;
        for (uint32_t x = 0; x < width; x++) {
            size_t i = (size_t)y * width + x;
            planes.red[i] = row[x * 4];
            planes.green[i] = row[x * 4 + 1];
            planes.blue[i] = row[x * 4 + 2];
            if (row[x * 4 + 3] < 128) transparent = 1;
        }
    }
    int size = transparent ? 255 : 256;
    memset(colors->Colors, 0, sizeof(GifColorType) * 256);
    pthread_mutex_lock(&quantiser_lock);
    int quantised =
        GifQuantizeBuffer(width, height, &size, planes.red, planes.green, planes.blue, planes.indices, colors->Colors);
    pthread_mutex_unlock(&quantiser_lock);
    if (quantised == GIF_ERROR) {
        *failed = 1;
        return 0;
    }
    if (transparent) {
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *row = (const uint8_t *)frame->pixels + (size_t)y * frame->stride;
            for (uint32_t x = 0; x < width; x++) {
                if (row[x * 4 + 3] < 128) planes.indices[(size_t)y * width + x] = TRANSPARENT_INDEX;
            }
        }
    }
    return transparent;
}

int gif_shim_put_loop_extension(GifFileType *gif, uint32_t loop_count) {
    GifByteType loop[3] = {1, (GifByteType)(loop_count & 0xFF), (GifByteType)((loop_count >> 8) & 0xFF)};
    return EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) != GIF_ERROR &&
           EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") != GIF_ERROR &&
           EGifPutExtensionBlock(gif, 3, loop) != GIF_ERROR && EGifPutExtensionTrailer(gif) != GIF_ERROR;
}

webimage_status gif_shim_put_frame(GifFileType *gif, const gif_shim_frame *frame, uint32_t width, uint32_t height,
                                   gif_shim_planes planes, ColorMapObject *colors, webimage_error *error) {
    int failed = 0;
    int transparent = quantise(frame, width, height, planes, colors, &failed);
    if (failed) return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "giflib's quantiser failed");
    GraphicsControlBlock control = {
        .DisposalMode = DISPOSE_BACKGROUND,
        .UserInputFlag = false,
        .DelayTime = (int)((frame->duration_ms + 5) / 10),
        .TransparentColor = transparent ? TRANSPARENT_INDEX : NO_TRANSPARENT_COLOR,
    };
    GifByteType extension[4];
    size_t length = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, (int)length, extension) == GIF_ERROR ||
        EGifPutImageDesc(gif, 0, 0, (int)width, (int)height, false, colors) == GIF_ERROR) {
        return gif_shim_giflib_error(error, gif->Error, 0, "writing a frame");
    }
    for (uint32_t y = 0; y < height; y++) {
        if (EGifPutLine(gif, planes.indices + (size_t)y * width, (int)width) == GIF_ERROR) {
            return gif_shim_giflib_error(error, gif->Error, 0, "writing a frame");
        }
    }
    return WEBIMAGE_STATUS_OK;
}

webimage_status gif_shim_encode(const gif_shim_frame *frames, uint32_t count, uint32_t width, uint32_t height,
                                uint32_t loop_count, webimage_output_buffer *output, webimage_error *error) {
    if (count == 0 || width == 0 || height == 0 || width > 65535 || height > 65535) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                             "GIF needs 1...65535 pixels per side and a frame");
    }
    size_t pixels = (size_t)width * height;
    gif_shim_planes planes = {malloc(pixels), malloc(pixels), malloc(pixels), malloc(pixels)};
    ColorMapObject *colors = GifMakeMapObject(256, NULL);
    int code = 0;
    GifFileType *gif = NULL;
    webimage_status status = WEBIMAGE_STATUS_OK;
    if (planes.red == NULL || planes.green == NULL || planes.blue == NULL || planes.indices == NULL || colors == NULL) {
        status = webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    gif = EGifOpen(output, gif_shim_write_to_memory, &code);
    if (gif == NULL) {
        status = gif_shim_giflib_error(error, code, 0, "starting the encoder");
        goto done;
    }
    EGifSetGifVersion(gif, true);
    if (EGifPutScreenDesc(gif, (int)width, (int)height, 8, 0, NULL) == GIF_ERROR ||
        (count > 1 && !gif_shim_put_loop_extension(gif, loop_count))) {
        status = gif_shim_giflib_error(error, gif->Error, 0, "writing the header");
        goto done;
    }
    for (uint32_t i = 0; i < count && status == WEBIMAGE_STATUS_OK; i++) {
        status = gif_shim_put_frame(gif, &frames[i], width, height, planes, colors, error);
    }
done:
    if (gif != NULL && EGifCloseFile(gif, &code) == GIF_ERROR && status == WEBIMAGE_STATUS_OK) {
        status = gif_shim_giflib_error(error, code, 0, "finishing the file");
    }
    GifFreeMapObject(colors);
    free(planes.red);
    free(planes.green);
    free(planes.blue);
    free(planes.indices);
    if (status != WEBIMAGE_STATUS_OK) webimage_output_buffer_discard(output);
    return status;
}
