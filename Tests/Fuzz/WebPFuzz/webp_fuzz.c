/*
 * libFuzzer harness for the WebP plugin's C shim: header reading, full and scaled decodes,
 * every animation path (forward, skipping, going back) and incremental decoding in pieces.
 * Build and run: see README.md. Not part of Package.swift.
 */
#include <stdint.h>
#include <stdlib.h>

#include "webp_shim.h"

/** The pixel limit the harness decodes under (4 megapixels, 16 MiB per buffer). */
#define FUZZ_MAX_PIXELS (4u << 20)

static void decode_still(const uint8_t *data, size_t size, const webp_shim_header *header, webimage_error *error) {
    uint32_t box[][2] = {{0, 0}, {header->width / 3 + 1, header->height / 2 + 1}};
    for (size_t i = 0; i < 2; i++) {
        uint32_t width = 0, height = 0;
        webp_shim_output_size(header, box[i][0], box[i][1], &width, &height);
        uint64_t full = (uint64_t)header->width * header->height;
        if ((uint64_t)width * height > FUZZ_MAX_PIXELS) continue;
        if (header->needs_full_size_memory && full > FUZZ_MAX_PIXELS) continue;
        uint8_t *pixels = malloc((size_t)width * height * 4);
        if (pixels == NULL) continue;
        webp_shim_decode(data, size, width, height, pixels, (size_t)width * 4, error);
        free(pixels);
    }
}

static void decode_animation(const uint8_t *data, size_t size, webimage_error *error) {
    webp_shim_animation *animation = NULL;
    webp_shim_header header;
    if (webp_shim_animation_open(data, size, FUZZ_MAX_PIXELS, &animation, &header, error) != WEBIMAGE_STATUS_OK) return;
    size_t stride = (size_t)header.width * 4;
    uint8_t *pixels = malloc(stride * header.height);
    if (pixels != NULL) {
        uint32_t order[] = {0, 1, 3, 2, 0, header.frame_count - 1, header.frame_count};
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            webp_shim_animation_duration(animation, order[i]);
            webp_shim_animation_render(animation, order[i], pixels, stride, error);
        }
        free(pixels);
    }
    webp_shim_animation_close(animation);
}

static void decode_incrementally(const uint8_t *data, size_t size, webimage_error *error) {
    webp_shim_incremental *decoder = webp_shim_incremental_create(FUZZ_MAX_PIXELS, 0);
    if (decoder == NULL) return;
    size_t piece = size % 61 + 1;
    for (size_t offset = 0; offset < size; offset += piece) {
        size_t end = offset + piece < size ? offset + piece : size;
        webp_shim_incremental_append(decoder, data + offset, end - offset, end == size, error);
        webp_shim_canvas canvas;
        webp_shim_incremental_canvas(decoder, &canvas);
    }
    webp_shim_incremental_destroy(decoder);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[256];
    webimage_error error = {message, sizeof message};
    webp_shim_header header;
    webp_shim_read_header(data, size, 1, &header, &error);
    if (webp_shim_read_header(data, size, 0, &header, &error) == WEBIMAGE_STATUS_OK)
        decode_still(data, size, &header, &error);
    if (size > 0) decode_animation(data, size, &error);
    decode_incrementally(data, size, &error);
    return 0;
}
