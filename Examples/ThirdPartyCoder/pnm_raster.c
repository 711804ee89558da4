/*
 * pnm_raster.c — turns PGM/PPM samples into RGBA pixels.
 *
 * Binary rasters (P5, P6) hold one byte per sample when maxval < 256, else two bytes,
 * most significant first. Plain rasters (P2, P3) hold decimal numbers separated by
 * whitespace. Every sample is rescaled from 0...maxval to the output range with
 * rounding, so maxval 255 (8-bit) and 65535 (16-bit) pass through unchanged.
 */
#include <string.h>

#include "pnm.h"

/** Reads samples one by one from either kind of raster. */
typedef struct sample_reader {
    const uint8_t *bytes;
    size_t size;
    size_t position;
    const pnm_header *header;
} sample_reader;

static bool is_space(uint8_t byte) {
    return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r' || byte == '\v' || byte == '\f';
}

/** Next decimal sample of a plain raster. Comments are tolerated between samples. */
static webimage_status next_text_sample(sample_reader *r, uint32_t *value, webimage_error *error) {
    while (r->position < r->size) {
        uint8_t byte = r->bytes[r->position];
        if (byte == '#') {
            while (r->position < r->size && r->bytes[r->position] != '\n' && r->bytes[r->position] != '\r')
                r->position++;
        } else if (is_space(byte)) {
            r->position++;
        } else {
            break;
        }
    }
    if (r->position >= r->size) {
        return pnm_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA,
                         "PNM data is truncated: the plain-text raster ends early (%zu bytes)", r->size);
    }
    uint8_t first = r->bytes[r->position];
    if (first < '0' || first > '9') {
        return pnm_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA,
                         "corrupt PNM raster: byte 0x%02x at offset %zu is not a digit", first, r->position);
    }
    uint32_t number = 0;
    while (r->position < r->size && r->bytes[r->position] >= '0' && r->bytes[r->position] <= '9') {
        /* Saturate instead of overflowing; any value above maxval is reported by the caller. */
        if (number <= 65535) number = number * 10 + (uint32_t)(r->bytes[r->position] - '0');
        r->position++;
    }
    *value = number;
    return WEBIMAGE_STATUS_OK;
}

/** Next sample of a binary raster; pnm_check_raster_size guarantees the bytes exist. */
static uint32_t next_binary_sample(sample_reader *r) {
    const uint8_t *p = r->bytes + r->position;
    if (r->header->maxval < 256) {
        r->position += 1;
        return p[0];
    }
    r->position += 2;
    return (uint32_t)p[0] << 8 | p[1];
}

/** Rescales 0...maxval to 0...top, rounding to nearest. Fits in 32 bits: 65535² < 2³². */
static uint32_t rescale(uint32_t value, uint32_t maxval, uint32_t top) {
    if (maxval == top) return value;
    return (value * top + maxval / 2) / maxval;
}

webimage_status pnm_check_raster_size(size_t size, const pnm_header *header, webimage_error *error) {
    size_t available = size > header->raster_offset ? size - header->raster_offset : 0;
    size_t samples = 0;
    size_t needed = 0;
    bool fits =
        pnm_multiply(header->width, header->height, &samples) && pnm_multiply(samples, header->channels, &samples);
    if (fits && header->ascii) {
        /* Each sample is at least one digit, and all but the last need a separator. */
        fits = pnm_multiply(samples, 2, &needed);
        needed -= 1;
    } else if (fits) {
        fits = pnm_multiply(samples, header->maxval < 256 ? 1 : 2, &needed);
    }
    if (!fits) {
        return pnm_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA,
                         "PNM data is truncated: a %ux%u raster cannot fit in %zu bytes", header->width, header->height,
                         available);
    }
    if (available < needed) {
        return pnm_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA,
                         "PNM data is truncated: the %ux%u raster needs %s%zu bytes, only %zu follow the header",
                         header->width, header->height, header->ascii ? "at least " : "", needed, available);
    }
    return WEBIMAGE_STATUS_OK;
}

webimage_status pnm_read_raster(const uint8_t *bytes, size_t size, const pnm_header *header, bool wide, uint8_t *pixels,
                                size_t stride, webimage_error *error) {
    sample_reader reader = {bytes, size, header->raster_offset, header};
    const uint32_t top = wide ? 65535u : 255u;
    for (uint32_t y = 0; y < header->height; y++) {
        uint8_t *row = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < header->width; x++) {
            uint32_t rgba[4] = {0, 0, 0, top};
            for (uint32_t channel = 0; channel < header->channels; channel++) {
                uint32_t value = 0;
                if (header->ascii) {
                    webimage_status status = next_text_sample(&reader, &value, error);
                    if (status != WEBIMAGE_STATUS_OK) return status;
                } else {
                    value = next_binary_sample(&reader);
                }
                if (value > header->maxval) {
                    return pnm_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA,
                                     "corrupt PNM raster: sample %u at pixel (%u, %u) exceeds maxval %u", value, x, y,
                                     header->maxval);
                }
                rgba[channel] = rescale(value, header->maxval, top);
            }
            if (header->channels == 1) rgba[1] = rgba[2] = rgba[0];
            if (wide) {
                /* RGBA16 is native-endian: store through uint16_t, not byte by byte. */
                uint16_t out[4] = {(uint16_t)rgba[0], (uint16_t)rgba[1], (uint16_t)rgba[2], (uint16_t)rgba[3]};
                memcpy(row + (size_t)x * 8, out, sizeof out);
            } else {
                uint8_t *out = row + (size_t)x * 4;
                for (int i = 0; i < 4; i++) out[i] = (uint8_t)rgba[i];
            }
        }
    }
    return WEBIMAGE_STATUS_OK;
}
