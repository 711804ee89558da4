/*
 * effects_pixels.c — the pixel work of the three effects, on RGBA8 with straight alpha.
 *
 * Grayscale and sepia change each pixel's colour alone, so alpha needs no care. Pixelate
 * averages a block: colours are weighted by their alpha (premultiplied), so transparent
 * pixels never darken the visible ones beside them.
 */
#include "effects.h"

static uint8_t clamp_byte(uint32_t value) { return value > 255 ? 255 : (uint8_t)value; }

/** BT.709 luma in 8-bit fixed point: the weights 54, 183 and 19 add up to 256. */
static uint8_t luma(const uint8_t *pixel) {
    return (uint8_t)((54u * pixel[0] + 183u * pixel[1] + 19u * pixel[2] + 128u) >> 8);
}

/** The classic sepia matrix in 1/1000ths, moved `percent` of the way from the original. */
static void sepia(const uint8_t *in, uint8_t *out, uint32_t percent) {
    static const uint32_t matrix[3][3] = {{393, 769, 189}, {349, 686, 168}, {272, 534, 131}};
    for (int channel = 0; channel < 3; channel++) {
        uint32_t toned = clamp_byte(
            (matrix[channel][0] * in[0] + matrix[channel][1] * in[1] + matrix[channel][2] * in[2] + 500) / 1000);
        int32_t moved = (int32_t)in[channel] * 100 + ((int32_t)toned - (int32_t)in[channel]) * (int32_t)percent;
        out[channel] = (uint8_t)((moved + 50) / 100);
    }
    out[3] = in[3];
}

static void pixelate(const webimage_image_view *input, uint32_t block, uint8_t *output, size_t output_stride) {
    const uint8_t *pixels = input->pixels;
    for (uint32_t top = 0; top < input->height; top += block) {
        uint32_t bottom = top + block < input->height ? top + block : input->height;
        for (uint32_t left = 0; left < input->width; left += block) {
            uint32_t right = left + block < input->width ? left + block : input->width;
            uint64_t weighted[3] = {0, 0, 0};
            uint64_t alpha = 0;
            for (uint32_t y = top; y < bottom; y++) {
                const uint8_t *pixel = pixels + y * input->stride + (size_t)left * 4;
                for (uint32_t x = left; x < right; x++, pixel += 4) {
                    for (int channel = 0; channel < 3; channel++)
                        weighted[channel] += (uint64_t)pixel[channel] * pixel[3];
                    alpha += pixel[3];
                }
            }
            uint64_t count = (uint64_t)(bottom - top) * (right - left);
            uint8_t average[4] = {0, 0, 0, (uint8_t)((alpha + count / 2) / count)};
            for (int channel = 0; channel < 3 && alpha > 0; channel++) {
                average[channel] = (uint8_t)((weighted[channel] + alpha / 2) / alpha);
            }
            for (uint32_t y = top; y < bottom; y++) {
                uint8_t *out = output + y * output_stride + (size_t)left * 4;
                for (uint32_t x = left; x < right; x++, out += 4) {
                    for (int channel = 0; channel < 4; channel++) out[channel] = average[channel];
                }
            }
        }
    }
}

void effects_apply(const effects_settings *settings, const webimage_image_view *input, uint8_t *output,
                   size_t output_stride) {
    if (settings->kind == EFFECTS_PIXELATE) {
        pixelate(input, settings->block, output, output_stride);
        return;
    }
    const uint8_t *pixels = input->pixels;
    for (uint32_t y = 0; y < input->height; y++) {
        const uint8_t *in = pixels + y * input->stride;
        uint8_t *out = output + y * output_stride;
        for (uint32_t x = 0; x < input->width; x++, in += 4, out += 4) {
            if (settings->kind == EFFECTS_SEPIA) {
                sepia(in, out, settings->percent);
            } else {
                out[0] = out[1] = out[2] = luma(in);
                out[3] = in[3];
            }
        }
    }
}
