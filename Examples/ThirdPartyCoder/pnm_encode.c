/*
 * pnm_encode.c — writes binary PPM (P6).
 *
 * PPM has no alpha channel, so each pixel is composited over the caller's background
 * colour. RGBA8 input gives maxval 255; RGBA16 input gives maxval 65535 (two bytes per
 * sample, most significant first) so 16-bit images stay lossless.
 */
#include <stdio.h>
#include <string.h>

#include "pnm.h"

/** `color` over `background` with straight alpha `alpha`, all in 0...top, rounded. */
static uint32_t composite(uint32_t color, uint32_t alpha, uint32_t background, uint32_t top) {
    uint64_t sum = (uint64_t)color * alpha + (uint64_t)background * (top - alpha);
    return (uint32_t)((sum + top / 2) / top);
}

/** Loads pixel `x` of `row` as four samples, whatever the pixel format. */
static void load_pixel(const uint8_t *row, uint32_t x, bool wide, uint32_t rgba[4]) {
    if (wide) {
        uint16_t in[4];
        memcpy(in, row + (size_t)x * 8, sizeof in); /* native-endian samples */
        for (int i = 0; i < 4; i++) rgba[i] = in[i];
    } else {
        for (int i = 0; i < 4; i++) rgba[i] = row[(size_t)x * 4 + (size_t)i];
    }
}

webimage_status pnm_write_p6(const webimage_host *host, const webimage_image_view *image, uint32_t background_rgba,
                             webimage_buffer *output, webimage_error *error) {
    if (image->pixel_format != WEBIMAGE_PIXEL_RGBA8 && image->pixel_format != WEBIMAGE_PIXEL_RGBA16) {
        return pnm_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "PPM encoder: unknown pixel format %u",
                         image->pixel_format);
    }
    const bool wide = image->pixel_format == WEBIMAGE_PIXEL_RGBA16;
    const size_t bytes_per_pixel = wide ? 8 : 4;
    const size_t bytes_per_sample = wide ? 2 : 1;
    const uint32_t top = wide ? 65535u : 255u;
    size_t row_bytes = 0;
    if (image->width == 0 || image->height == 0 || image->pixels == NULL ||
        !pnm_multiply(image->width, bytes_per_pixel, &row_bytes) || image->stride < row_bytes) {
        return pnm_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "PPM encoder: invalid image (%ux%u, stride %zu)",
                         image->width, image->height, image->stride);
    }

    char header[64];
    int header_length = snprintf(header, sizeof header, "P6\n%u %u\n%u\n", image->width, image->height, top);
    size_t body = 0;
    size_t total = 0;
    if (header_length < 0 || !pnm_multiply(image->width, image->height, &body) ||
        !pnm_multiply(body, 3 * bytes_per_sample, &body) || body > SIZE_MAX - (size_t)header_length) {
        return pnm_failf(error, WEBIMAGE_STATUS_TOO_LARGE, "PPM encoder: %ux%u is too large", image->width,
                         image->height);
    }
    total = (size_t)header_length + body;
    uint8_t *bytes = host->allocate(host->context, total, 16);
    if (bytes == NULL) {
        return pnm_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "PPM encoder: cannot allocate %zu bytes", total);
    }
    memcpy(bytes, header, (size_t)header_length);

    /* The background is 0xRRGGBBAA; its own alpha is ignored (PPM is opaque). */
    const uint32_t background[3] = {(background_rgba >> 24) & 0xff, (background_rgba >> 16) & 0xff,
                                    (background_rgba >> 8) & 0xff};
    const uint32_t background_scale = wide ? 257u : 1u; /* 0xff -> 0xffff */
    uint8_t *out = bytes + header_length;
    const uint8_t *pixels = image->pixels;
    for (uint32_t y = 0; y < image->height; y++) {
        const uint8_t *row = pixels + (size_t)y * image->stride;
        for (uint32_t x = 0; x < image->width; x++) {
            uint32_t rgba[4];
            load_pixel(row, x, wide, rgba);
            for (int c = 0; c < 3; c++) {
                uint32_t value = composite(rgba[c], rgba[3], background[c] * background_scale, top);
                if (wide) *out++ = (uint8_t)(value >> 8);
                *out++ = (uint8_t)value;
            }
        }
    }
    output->bytes = bytes;
    output->size = total;
    return WEBIMAGE_STATUS_OK;
}
