/*
 * Unfiltered PNG rows to RGBA, matching the libpng path's transforms byte for byte:
 * png_set_expand (low gray depths scaled to 8 bits, tRNS colour key to alpha 0, other
 * pixels opaque), png_set_gray_to_rgb, png_set_scale_16 (v * 255 / 65535 rounded to
 * nearest), an opaque filler for images without alpha, and native-endian 16-bit output.
 * Palette images go through png_shim_palette_table like the libpng path's.
 */
#include <string.h>

#include "png_fast_path.h"

/** A 16-bit big-endian sample. */
static inline uint32_t sample16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/**
 * A 16-bit sample scaled to 8 bits the way png_set_scale_16 does it, round(v / 257) with
 * ties down, which is (v * 255 + 32767) / 65535; this form without the division equals
 * it for all 65536 values.
 */
static inline uint8_t scale16(const uint8_t *p) {
    uint32_t biased = sample16(p) + 128;
    return (uint8_t)((biased - (biased >> 8)) >> 8);
}

static inline void put_rgba8(uint8_t *out, uint8_t red, uint8_t green, uint8_t blue, uint8_t alpha) {
    out[0] = red;
    out[1] = green;
    out[2] = blue;
    out[3] = alpha;
}

static inline void put_rgba16(uint8_t *out, uint16_t red, uint16_t green, uint16_t blue, uint16_t alpha) {
    uint16_t pixel[4] = {red, green, blue, alpha};
    memcpy(out, pixel, sizeof pixel);
}

/** Gray of 1, 2 or 4 bits: scaled to 8 bits; the key is compared after masking to the depth, as libpng does. */
static void gray_low(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    unsigned depth = (unsigned)format->bit_depth;
    unsigned mask = (1u << depth) - 1;
    unsigned scale = 255 / mask;
    unsigned per_byte = 8 / depth;
    unsigned key = format->has_key ? (format->key[0] & mask) : 256;
    for (uint32_t x = 0; x < format->width; x++, out += 4) {
        unsigned shift = 8 - depth - (x % per_byte) * depth;
        unsigned value = (in[x / per_byte] >> shift) & mask;
        uint8_t gray = (uint8_t)(value * scale);
        put_rgba8(out, gray, gray, gray, value == key ? 0 : 255);
    }
}

static void palette_low(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    unsigned depth = (unsigned)format->bit_depth;
    unsigned mask = (1u << depth) - 1;
    unsigned per_byte = 8 / depth;
    for (uint32_t x = 0; x < format->width; x++, out += 4) {
        unsigned shift = 8 - depth - (x % per_byte) * depth;
        memcpy(out, &format->table[(in[x / per_byte] >> shift) & mask], 4);
    }
}

static void gray8(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    unsigned key = format->has_key ? (format->key[0] & 0xFFu) : 256;
    for (uint32_t x = 0; x < format->width; x++, out += 4) put_rgba8(out, in[x], in[x], in[x], in[x] == key ? 0 : 255);
}

static void gray16(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    uint32_t key = format->has_key ? format->key[0] : 0x10000u;
    if (format->sixteen_output) {
        for (uint32_t x = 0; x < format->width; x++, in += 2, out += 8) {
            uint16_t gray = (uint16_t)sample16(in);
            put_rgba16(out, gray, gray, gray, gray == key ? 0 : 0xFFFF);
        }
    } else {
        for (uint32_t x = 0; x < format->width; x++, in += 2, out += 4) {
            uint8_t gray = scale16(in);
            put_rgba8(out, gray, gray, gray, sample16(in) == key ? 0 : 255);
        }
    }
}

static void gray_alpha(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    if (format->bit_depth == 8) {
        for (uint32_t x = 0; x < format->width; x++, in += 2, out += 4) put_rgba8(out, in[0], in[0], in[0], in[1]);
    } else if (format->sixteen_output) {
        for (uint32_t x = 0; x < format->width; x++, in += 4, out += 8) {
            uint16_t gray = (uint16_t)sample16(in);
            put_rgba16(out, gray, gray, gray, (uint16_t)sample16(in + 2));
        }
    } else {
        for (uint32_t x = 0; x < format->width; x++, in += 4, out += 4) {
            uint8_t gray = scale16(in);
            put_rgba8(out, gray, gray, gray, scale16(in + 2));
        }
    }
}

static void rgb8(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    if (!format->has_key) {
        for (uint32_t x = 0; x < format->width; x++, in += 3, out += 4) put_rgba8(out, in[0], in[1], in[2], 255);
        return;
    }
    unsigned red = format->key[0] & 0xFFu, green = format->key[1] & 0xFFu, blue = format->key[2] & 0xFFu;
    for (uint32_t x = 0; x < format->width; x++, in += 3, out += 4) {
        int transparent = in[0] == red && in[1] == green && in[2] == blue;
        put_rgba8(out, in[0], in[1], in[2], transparent ? 0 : 255);
    }
}

static void rgb16(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    uint32_t red_key = 0x10000u, green_key = 0, blue_key = 0;
    if (format->has_key) {
        red_key = format->key[0];
        green_key = format->key[1];
        blue_key = format->key[2];
    }
    if (format->sixteen_output) {
        for (uint32_t x = 0; x < format->width; x++, in += 6, out += 8) {
            uint32_t red = sample16(in), green = sample16(in + 2), blue = sample16(in + 4);
            int transparent = red == red_key && green == green_key && blue == blue_key;
            put_rgba16(out, (uint16_t)red, (uint16_t)green, (uint16_t)blue, transparent ? 0 : 0xFFFF);
        }
    } else if (!format->has_key) {
        for (uint32_t x = 0; x < format->width; x++, in += 6, out += 4) {
            put_rgba8(out, scale16(in), scale16(in + 2), scale16(in + 4), 255);
        }
    } else {
        for (uint32_t x = 0; x < format->width; x++, in += 6, out += 4) {
            int transparent = sample16(in) == red_key && sample16(in + 2) == green_key && sample16(in + 4) == blue_key;
            put_rgba8(out, scale16(in), scale16(in + 2), scale16(in + 4), transparent ? 0 : 255);
        }
    }
}

static void rgba(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    size_t samples = (size_t)format->width * 4;
    if (format->bit_depth == 8) {
        memcpy(out, in, samples);
    } else if (format->sixteen_output) {
        for (size_t i = 0; i < samples; i++, in += 2, out += 2) {
            uint16_t value = (uint16_t)sample16(in);
            memcpy(out, &value, 2);
        }
    } else {
        for (size_t i = 0; i < samples; i++, in += 2) out[i] = scale16(in);
    }
}

void png_shim_expand_row(const png_shim_row_format *format, const uint8_t *in, uint8_t *out) {
    switch (format->color_type) {
    case 0:
        if (format->bit_depth < 8) gray_low(format, in, out);
        else if (format->bit_depth == 8) gray8(format, in, out);
        else gray16(format, in, out);
        break;
    case 2:
        if (format->bit_depth == 8) rgb8(format, in, out);
        else rgb16(format, in, out);
        break;
    case 3:
        if (format->bit_depth < 8) palette_low(format, in, out);
        else png_shim_expand_indices(in, format->width, format->table, out);
        break;
    case 4:
        gray_alpha(format, in, out);
        break;
    default:
        rgba(format, in, out);
        break;
    }
}
