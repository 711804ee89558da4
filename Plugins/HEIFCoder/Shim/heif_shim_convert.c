/*
 * Pixel conversions the shim runs itself, each on two threads (the rows split in halves):
 *
 *  - 8-bit YCbCr (4:2:0, 4:2:2, 4:4:4) to planar RGB, in the HEVC decoder plugin. libheif 1.15
 *    turns every decoded YCbCr picture into planar RGB on one thread, in float; when the plugin
 *    already returns planar RGB, libheif keeps it. The arithmetic follows libheif's: the nclx
 *    matrix's Kr/Kb (BT.601 when unspecified), limited range scaled by libheif's factors,
 *    nearest-neighbour chroma (each chroma sample covers its 2×2 or 2×1 luma samples), rounded
 *    to nearest; in 16.16 fixed point instead of float, so a sample can differ by one where the
 *    exact value lies within 2^-15 of a rounding boundary.
 *  - Planar R, G, B and optional alpha (8-bit) to interleaved RGBA in the host's buffer,
 *    replacing libheif's interleaving pass and the copy out of libheif's buffer.
 */
#include "heif_shim_internal.h"

#include <pthread.h>

/** Below this many pixels one thread does the work: starting a thread costs more. */
enum { parallel_minimum_pixels = 65536 };

/** 16.16 fixed point. */
enum { fraction_bits = 16 };

/** Where 0 sits in heif_shim_ycbcr_tables.clamp. */
enum { clamp_offset = 384 };

typedef struct row_job {
    heif_shim_row_work work;
    const void *context;
    uint32_t first_row;
    uint32_t end_row;
} row_job;

static void *run_row_job(void *raw) {
    const row_job *job = raw;
    job->work(job->context, job->first_row, job->end_row);
    return NULL;
}

void heif_shim_split_rows(uint32_t width, uint32_t height, heif_shim_row_work work, const void *context) {
    uint32_t half = (height / 2) & ~1u;
    if ((uint64_t)width * height < parallel_minimum_pixels || half == 0) {
        work(context, 0, height);
        return;
    }
    row_job lower = {work, context, half, height};
    pthread_t thread;
    if (pthread_create(&thread, NULL, run_row_job, &lower) != 0) {
        work(context, 0, height);
        return;
    }
    work(context, 0, half);
    pthread_join(thread, NULL);
}

/* ---- YCbCr to planar RGB ---- */

/** Kr and Kb of an ISO/IEC 23091-2 matrix, as libheif 1.15 tabulates them; 0 when it has none. */
static int matrix_weights(uint16_t matrix, float *kr, float *kb) {
    switch (matrix) {
    case 1:
        *kr = 0.2126f, *kb = 0.0722f;
        return 1;
    case 4:
        *kr = 0.30f, *kb = 0.11f;
        return 1;
    case 5:
    case 6:
        *kr = 0.299f, *kb = 0.114f;
        return 1;
    case 7:
        *kr = 0.212f, *kb = 0.087f;
        return 1;
    case 9:
        *kr = 0.2627f, *kb = 0.0593f;
        return 1;
    default:
        return 0;
    }
}

static int32_t to_fixed(float value) {
    float scaled = value * (float)(1 << fraction_bits);
    return (int32_t)(scaled < 0 ? scaled - 0.5f : scaled + 0.5f);
}

int heif_shim_ycbcr_tables_init(heif_shim_ycbcr_tables *tables, uint16_t matrix, int full_range) {
    /* libheif's defaults, used for "unspecified" (2): BT.601. */
    float r_cr = 1.402f, g_cb = -0.344136f, g_cr = -0.714136f, b_cb = 1.772f;
    float kr = 0, kb = 0;
    if (matrix_weights(matrix, &kr, &kb)) {
        r_cr = 2 * (-kr + 1);
        g_cb = 2 * kb * (-kb + 1) / (kb + kr - 1);
        g_cr = 2 * kr * (-kr + 1) / (kb + kr - 1);
        b_cb = 2 * (-kb + 1);
    } else if (matrix != 2) {
        return 0;
    }
    /* libheif's limited-range factors (close to 255/219 and 255/224). */
    float luma_scale = full_range ? 1.0f : 1.1689f;
    float chroma_scale = full_range ? 1.0f : 1.1429f;
    float luma_offset = full_range ? 0.0f : 16.0f;
    for (int index = 0; index < 1024; index++) {
        int value = index - clamp_offset;
        tables->clamp[index] = (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
    }
    for (int value = 0; value < 256; value++) {
        float chroma = (float)(value - 128) * chroma_scale;
        tables->luma[value] = to_fixed(((float)value - luma_offset) * luma_scale) + (1 << (fraction_bits - 1));
        tables->red_cr[value] = to_fixed(r_cr * chroma);
        tables->green_cb[value] = to_fixed(g_cb * chroma);
        tables->green_cr[value] = to_fixed(g_cr * chroma);
        tables->blue_cb[value] = to_fixed(b_cb * chroma);
    }
    return 1;
}

/** A 16.16 sum rounded down and clamped to 0...255 through the table (no branches). */
static inline uint8_t saturate(const uint8_t *restrict clamp, int32_t value) {
    return clamp[((value >> fraction_bits) + clamp_offset) & 1023];
}

/**
 * One row. The pointers are restrict-qualified locals: the stores go through uint8_t, which
 * may alias anything, and would otherwise force reloads of the tables and the job each pixel.
 */
static void ycbcr_row(const heif_shim_ycbcr_tables *restrict tables, const uint8_t *restrict luma,
                      const uint8_t *restrict cb, const uint8_t *restrict cr, uint8_t *restrict red,
                      uint8_t *restrict green, uint8_t *restrict blue, uint32_t width, uint32_t shift_x) {
    const int32_t *restrict levels = tables->luma;
    const int32_t *restrict red_cr = tables->red_cr;
    const int32_t *restrict green_cb = tables->green_cb;
    const int32_t *restrict green_cr = tables->green_cr;
    const int32_t *restrict blue_cb = tables->blue_cb;
    const uint8_t *restrict clamp = tables->clamp;
    if (shift_x == 0) {
        for (uint32_t x = 0; x < width; x++) {
            int32_t level = levels[luma[x]];
            red[x] = saturate(clamp, level + red_cr[cr[x]]);
            green[x] = saturate(clamp, level + green_cb[cb[x]] + green_cr[cr[x]]);
            blue[x] = saturate(clamp, level + blue_cb[cb[x]]);
        }
        return;
    }
    /* Each chroma sample covers two luma samples of the row (the last one maybe only one). */
    for (uint32_t x = 0; x < width; x += 2) {
        uint32_t c = x >> 1;
        int32_t red_term = red_cr[cr[c]];
        int32_t green_term = green_cb[cb[c]] + green_cr[cr[c]];
        int32_t blue_term = blue_cb[cb[c]];
        int32_t level = levels[luma[x]];
        red[x] = saturate(clamp, level + red_term);
        green[x] = saturate(clamp, level + green_term);
        blue[x] = saturate(clamp, level + blue_term);
        if (x + 1 == width) break;
        level = levels[luma[x + 1]];
        red[x + 1] = saturate(clamp, level + red_term);
        green[x + 1] = saturate(clamp, level + green_term);
        blue[x + 1] = saturate(clamp, level + blue_term);
    }
}

static void ycbcr_rows(const void *raw, uint32_t first_row, uint32_t end_row) {
    const heif_shim_ycbcr_job *job = raw;
    for (uint32_t y = first_row; y < end_row; y++) {
        size_t chroma_row = (size_t)(y >> job->chroma_shift_y);
        ycbcr_row(job->tables, job->planes[0] + (size_t)y * job->strides[0],
                  job->planes[1] + chroma_row * job->strides[1], job->planes[2] + chroma_row * job->strides[2],
                  job->rgb[0] + (size_t)y * job->rgb_strides[0], job->rgb[1] + (size_t)y * job->rgb_strides[1],
                  job->rgb[2] + (size_t)y * job->rgb_strides[2], job->width, job->chroma_shift_x);
    }
}

void heif_shim_ycbcr_to_rgb(const heif_shim_ycbcr_job *job) {
    heif_shim_split_rows(job->width, job->height, ycbcr_rows, job);
}

/* ---- Planar RGB(A) to interleaved RGBA ---- */

static void unpremultiply_row(uint8_t *row, uint32_t width) {
    for (uint32_t x = 0; x < width; x++) {
        uint8_t *pixel = row + (size_t)x * 4;
        unsigned alpha = pixel[3];
        if (alpha == 0 || alpha == 255) continue;
        for (int c = 0; c < 3; c++) {
            unsigned value = (pixel[c] * 255u + alpha / 2) / alpha;
            pixel[c] = (uint8_t)(value > 255 ? 255 : value);
        }
    }
}

static void interleave_row(const uint8_t *restrict red, const uint8_t *restrict green, const uint8_t *restrict blue,
                           const uint8_t *restrict alpha, uint8_t *restrict out, uint32_t width) {
    if (alpha) {
        for (uint32_t x = 0; x < width; x++) {
            out[x * 4] = red[x];
            out[x * 4 + 1] = green[x];
            out[x * 4 + 2] = blue[x];
            out[x * 4 + 3] = alpha[x];
        }
    } else {
        for (uint32_t x = 0; x < width; x++) {
            out[x * 4] = red[x];
            out[x * 4 + 1] = green[x];
            out[x * 4 + 2] = blue[x];
            out[x * 4 + 3] = 255;
        }
    }
}

static void interleave_rows(const void *raw, uint32_t first_row, uint32_t end_row) {
    const heif_shim_interleave_job *job = raw;
    for (uint32_t y = first_row; y < end_row; y++) {
        uint8_t *out = job->pixels + (size_t)y * job->stride;
        interleave_row(job->planes[0] + (size_t)y * job->strides[0], job->planes[1] + (size_t)y * job->strides[1],
                       job->planes[2] + (size_t)y * job->strides[2],
                       job->planes[3] ? job->planes[3] + (size_t)y * job->strides[3] : NULL, out, job->width);
        if (job->planes[3] && job->premultiplied) unpremultiply_row(out, job->width);
    }
}

void heif_shim_interleave(const heif_shim_interleave_job *job) {
    heif_shim_split_rows(job->width, job->height, interleave_rows, job);
}
