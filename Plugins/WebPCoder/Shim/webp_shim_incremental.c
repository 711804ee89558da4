/*
 * Incremental decoding on WebPIDecoder. Bytes are held back until the header is known,
 * so the pixel limit is checked before libwebp (or the shim) allocates anything for
 * pixels; libwebp then decodes into the shim's zeroed canvas.
 */
#include <stdlib.h>
#include <string.h>

#include "webp_shim_internal.h"

struct webp_shim_incremental {
    uint64_t max_pixel_count;
    uint64_t max_byte_count;
    /** Bytes seen before the header was complete, or the whole file of an animation. */
    uint8_t *pending;
    size_t pending_size;
    size_t pending_capacity;
    int have_header;
    webp_shim_header header;
    WebPIDecoder *decoder;
    uint8_t *pixels;
    uint32_t rows;
    int complete;
    /** The first failure, repeated by later calls. */
    webimage_status failure;
};

webp_shim_incremental *webp_shim_incremental_create(uint64_t max_pixel_count, uint64_t max_byte_count) {
    webp_shim_incremental *decoder = calloc(1, sizeof *decoder);
    if (decoder != NULL) decoder->max_pixel_count = max_pixel_count;
    if (decoder != NULL) decoder->max_byte_count = max_byte_count;
    return decoder;
}

void webp_shim_incremental_destroy(webp_shim_incremental *decoder) {
    if (decoder == NULL) return;
    WebPIDelete(decoder->decoder);
    free(decoder->pixels);
    free(decoder->pending);
    free(decoder);
}

static int keep(webp_shim_incremental *decoder, const uint8_t *bytes, size_t size) {
    if (size == 0) return 1;
    if (decoder->pending_size + size > decoder->pending_capacity) {
        size_t capacity = decoder->pending_capacity ? decoder->pending_capacity : 4096;
        while (capacity < decoder->pending_size + size) capacity *= 2;
        uint8_t *grown = realloc(decoder->pending, capacity);
        if (grown == NULL) return 0;
        decoder->pending = grown;
        decoder->pending_capacity = capacity;
    }
    memcpy(decoder->pending + decoder->pending_size, bytes, size);
    decoder->pending_size += size;
    return 1;
}

static webimage_status failed(webp_shim_incremental *decoder, webimage_status status) {
    decoder->failure = status;
    return status;
}

/** Reads the header from the pending bytes; starts the WebPIDecoder for still images. */
static webimage_status start(webp_shim_incremental *decoder, int is_final, webimage_error *error) {
    webimage_status status = webp_shim_read_header(decoder->pending, decoder->pending_size, 0, &decoder->header, error);
    if (status == WEBIMAGE_STATUS_TRUNCATED_DATA && !is_final) return WEBIMAGE_STATUS_OK;
    if (status != WEBIMAGE_STATUS_OK) return failed(decoder, status);
    uint64_t pixels = (uint64_t)decoder->header.width * decoder->header.height;
    if (decoder->max_pixel_count > 0 && pixels > decoder->max_pixel_count) {
        return failed(decoder, webimage_fail(error, WEBIMAGE_STATUS_TOO_LARGE, "the image exceeds the pixel limit"));
    }
    /* The canvas and the copy of it the host hands out as the image so far. */
    webimage_status limit = webimage_check_byte_limit(pixels * WEBP_SHIM_CHANNELS * 2, decoder->max_byte_count,
                                                      "the canvas and its copy", error);
    if (limit != WEBIMAGE_STATUS_OK) return failed(decoder, limit);
    decoder->have_header = 1;
    size_t stride = (size_t)decoder->header.width * WEBP_SHIM_CHANNELS;
    decoder->pixels = calloc(decoder->header.height, stride);
    if (decoder->pixels == NULL)
        return failed(decoder, webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory"));
    if (decoder->header.animated) return WEBIMAGE_STATUS_OK;
    decoder->decoder = WebPINewRGB(MODE_RGBA, decoder->pixels, stride * decoder->header.height, (int)stride);
    if (decoder->decoder == NULL) {
        return failed(decoder,
                      webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "could not start libwebp's decoder"));
    }
    return WEBIMAGE_STATUS_OK;
}

static webimage_status feed(webp_shim_incremental *decoder, const uint8_t *bytes, size_t size, int is_final,
                            webimage_error *error) {
    VP8StatusCode code = WebPIAppend(decoder->decoder, bytes, size);
    int last_row = 0;
    if (WebPIDecGetRGB(decoder->decoder, &last_row, NULL, NULL, NULL) != NULL && last_row > 0) {
        decoder->rows = (uint32_t)last_row;
    }
    if (code == VP8_STATUS_OK) {
        decoder->complete = 1;
        decoder->rows = decoder->header.height;
        return WEBIMAGE_STATUS_OK;
    }
    if (code == VP8_STATUS_SUSPENDED) {
        if (!is_final) return WEBIMAGE_STATUS_OK;
        return failed(decoder, webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA,
                                             "the file ends before the image is complete"));
    }
    return failed(decoder, webp_shim_fail_decode(error, code, ""));
}

webimage_status webp_shim_incremental_append(webp_shim_incremental *decoder, const uint8_t *bytes, size_t size,
                                             bool is_final, webimage_error *error) {
    if (decoder->failure != WEBIMAGE_STATUS_OK)
        return webimage_fail(error, decoder->failure, "the decode already failed");
    if (decoder->complete) return WEBIMAGE_STATUS_OK;
    if (decoder->decoder != NULL) return feed(decoder, bytes, size, is_final, error);
    if (!keep(decoder, bytes, size))
        return failed(decoder, webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory"));
    if (!decoder->have_header) {
        webimage_status status = start(decoder, is_final, error);
        if (status != WEBIMAGE_STATUS_OK || !decoder->have_header) return status;
    }
    if (decoder->decoder != NULL) {
        webimage_status status = feed(decoder, decoder->pending, decoder->pending_size, is_final, error);
        free(decoder->pending);
        decoder->pending = NULL;
        decoder->pending_size = decoder->pending_capacity = 0;
        return status;
    }
    /* An animation: the first frame once the whole file is here. */
    if (!is_final) return WEBIMAGE_STATUS_OK;
    webimage_status status =
        webp_shim_decode(decoder->pending, decoder->pending_size, decoder->header.width, decoder->header.height,
                         decoder->pixels, (size_t)decoder->header.width * WEBP_SHIM_CHANNELS, error);
    if (status != WEBIMAGE_STATUS_OK) return failed(decoder, status);
    decoder->complete = 1;
    decoder->rows = decoder->header.height;
    return WEBIMAGE_STATUS_OK;
}

void webp_shim_incremental_canvas(const webp_shim_incremental *decoder, webp_shim_canvas *canvas) {
    memset(canvas, 0, sizeof *canvas);
    canvas->header = decoder->header;
    canvas->rows = decoder->rows;
    canvas->complete = decoder->complete;
    canvas->stride = (size_t)decoder->header.width * WEBP_SHIM_CHANNELS;
    if (decoder->pixels != NULL && decoder->rows > 0) canvas->pixels = decoder->pixels;
}
