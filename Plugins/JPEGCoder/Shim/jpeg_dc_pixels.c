/*
 * MCU records to RGBA8 pixels, with the arithmetic of libjpeg-turbo's 1/8-scale output:
 *
 * - a 1×1 block (luma, and chroma that is not subsampled in both directions) is its
 *   dequantised DC divided by 8, rounded, plus 128;
 * - the chroma of a 4:2:0 file goes through libjpeg's 2×2 reduced IDCT (jidctred.c), which
 *   reads rows and columns 0, 1, 3, 5, 7. Only column 0's even part depends on the DC, so
 *   the entropy decoder keeps, per block, the DC prediction and three integers: column 0's
 *   odd part and each output row's odd part (see decode_two_by_two in jpeg_dc_entropy.c);
 * - chroma of 4:2:2 files is repeated over the two luma pixels (libjpeg does not smooth when
 *   every block is scaled to one pixel);
 * - YCbCr becomes RGB through libjpeg's fixed-point JFIF tables (16 fraction bits).
 */
#include <pthread.h>

#include "jpeg_dc_internal.h"

/** Images with at least this many output pixels are written by two threads. */
#define PARALLEL_MINIMUM_PIXELS 65536

/** Lookup tables for one decode: the IDCT output range limit and the fixed-point JFIF YCbCr to RGB terms. */
typedef struct pixel_tables {
    /** libjpeg's IDCT range limit: by a value's low 10 bits, the value plus 128, clamped, wrapping as libjpeg does. */
    uint8_t idct_limit[1024];
    /** 0...255 clamping of -384...639, indexed from -384. */
    uint8_t clamp[1024];
    int32_t red_from_cr[256];
    int32_t blue_from_cb[256];
    int32_t green_from_cr[256];
    int32_t green_from_cb[256];
} pixel_tables;

static void fill_tables(pixel_tables *tables) {
    for (int32_t index = 0; index < 1024; index++) {
        uint8_t limited;
        if (index < 128) limited = (uint8_t)(index + 128);
        else if (index < 512) limited = 255;
        else if (index < 896) limited = 0;
        else limited = (uint8_t)(index - 896);
        tables->idct_limit[index] = limited;
        int32_t value = index - 384;
        tables->clamp[index] = value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value;
    }
    for (int32_t i = 0; i < 256; i++) {
        int32_t x = i - 128;
        tables->red_from_cr[i] = (91881 * x + 32768) >> 16;   /* 1.40200 * 2^16 */
        tables->blue_from_cb[i] = (116130 * x + 32768) >> 16; /* 1.77200 * 2^16 */
        tables->green_from_cr[i] = -46802 * x;                /* 0.71414 * 2^16 */
        tables->green_from_cb[i] = -22554 * x + 32768;        /* 0.34414 * 2^16, plus the rounding half */
    }
}

static inline void put_rgba(uint8_t *pixel, const pixel_tables *tables, uint8_t y, uint8_t cb, uint8_t cr) {
    const uint8_t *clamp = tables->clamp + 384;
    pixel[0] = clamp[y + tables->red_from_cr[cr]];
    pixel[1] = clamp[y + ((tables->green_from_cb[cb] + tables->green_from_cr[cr]) >> 16)];
    pixel[2] = clamp[y + tables->blue_from_cb[cb]];
    pixel[3] = 255;
}

/** A 1×1 block: the DC (as libjpeg's 16-bit coefficient) dequantised, divided by 8 and rounded. */
static inline uint8_t one_by_one(const pixel_tables *tables, int32_t prediction, int32_t quantizer) {
    return tables->idct_limit[((int32_t)(int16_t)prediction * quantizer + 4) >> 3 & 1023];
}

/** The four output pixels of a 2×2 chroma block from its record, row by row. */
static inline void two_by_two(const pixel_tables *tables, const int32_t record[4], int32_t quantizer,
                              uint8_t out[4]) {
    int64_t dc = (int64_t)(int16_t)record[0] * quantizer * 32768;
    for (int row = 0; row < 2; row++) {
        int64_t column_zero = (dc + (row == 0 ? record[1] : -(int64_t)record[1]) + 4096) >> 13;
        int64_t even = column_zero * 32768 + (1 << 19);
        int64_t odd = record[2 + row];
        out[row * 2] = tables->idct_limit[(even + odd) >> 20 & 1023];
        out[row * 2 + 1] = tables->idct_limit[(even - odd) >> 20 & 1023];
    }
}

/** The MCU rows one call writes: [first, end). */
typedef struct mcu_rows {
    uint32_t first;
    uint32_t end;
} mcu_rows;

static void write_gray(const jpeg_dc_plan *plan, const pixel_tables *tables, const int32_t *records,
                       uint8_t *pixels, size_t stride, mcu_rows rows) {
    for (uint32_t y = rows.first; y < rows.end; y++) {
        const int32_t *record = records + (uint64_t)y * plan->mcus_per_row;
        uint8_t *pixel = pixels + y * stride;
        for (uint32_t x = 0; x < plan->output_width; x++, pixel += 4) {
            uint8_t gray = one_by_one(tables, record[x], plan->dc_quantizer[0]);
            pixel[0] = pixel[1] = pixel[2] = gray;
            pixel[3] = 255;
        }
    }
}

/** 4:4:4 (one pixel per MCU) and 4:2:2 (two pixels per MCU, chroma repeated). */
static void write_unscaled_chroma(const jpeg_dc_plan *plan, const pixel_tables *tables, const int32_t *records,
                                  uint8_t *pixels, size_t stride, mcu_rows rows) {
    const int32_t *q = plan->dc_quantizer;
    int size = plan->record_size;
    uint32_t luma_blocks = plan->layout == JPEG_DC_YCC_422 ? 2 : 1;
    for (uint32_t y = rows.first; y < rows.end; y++) {
        const int32_t *record = records + (uint64_t)y * plan->mcus_per_row * size;
        uint8_t *pixel = pixels + y * stride;
        for (uint32_t x = 0; x < plan->output_width; x += luma_blocks, record += size) {
            uint8_t cb = one_by_one(tables, record[luma_blocks], q[1]);
            uint8_t cr = one_by_one(tables, record[luma_blocks + 1], q[2]);
            for (uint32_t b = 0; b < luma_blocks && x + b < plan->output_width; b++, pixel += 4) {
                put_rgba(pixel, tables, one_by_one(tables, record[b], q[0]), cb, cr);
            }
        }
    }
}

/** 4:2:0: each MCU gives 2×2 pixels, luma from four 1×1 blocks, chroma from two 2×2 blocks. */
static void write_420(const jpeg_dc_plan *plan, const pixel_tables *tables, const int32_t *records,
                      uint8_t *pixels, size_t stride, mcu_rows rows) {
    const int32_t *q = plan->dc_quantizer;
    int size = plan->record_size;
    for (uint32_t mcu_y = rows.first; mcu_y < rows.end; mcu_y++) {
        const int32_t *record = records + (uint64_t)mcu_y * plan->mcus_per_row * size;
        uint32_t rows = plan->output_height - mcu_y * 2 < 2 ? 1 : 2;
        for (uint32_t mcu_x = 0; mcu_x < plan->mcus_per_row; mcu_x++, record += size) {
            uint8_t cb[4], cr[4];
            two_by_two(tables, record + 4, q[1], cb);
            two_by_two(tables, record + 8, q[2], cr);
            uint32_t columns = plan->output_width - mcu_x * 2 < 2 ? 1 : 2;
            for (uint32_t row = 0; row < rows; row++) {
                uint8_t *pixel = pixels + (size_t)(mcu_y * 2 + row) * stride + (size_t)mcu_x * 8;
                for (uint32_t column = 0; column < columns; column++, pixel += 4) {
                    uint32_t block = row * 2 + column;
                    put_rgba(pixel, tables, one_by_one(tables, record[block], q[0]), cb[block], cr[block]);
                }
            }
        }
    }
}

/** One thread's share of the pixels. */
typedef struct pixel_job {
    const jpeg_dc_plan *plan;
    const pixel_tables *tables;
    const int32_t *records;
    uint8_t *pixels;
    size_t stride;
    mcu_rows rows;
} pixel_job;

static void *write_job(void *argument) {
    const pixel_job *job = argument;
    switch (job->plan->layout) {
        case JPEG_DC_GRAY: write_gray(job->plan, job->tables, job->records, job->pixels, job->stride, job->rows); break;
        case JPEG_DC_YCC_444:
        case JPEG_DC_YCC_422:
            write_unscaled_chroma(job->plan, job->tables, job->records, job->pixels, job->stride, job->rows);
            break;
        case JPEG_DC_YCC_420: write_420(job->plan, job->tables, job->records, job->pixels, job->stride, job->rows); break;
    }
    return NULL;
}

void jpeg_dc_write_pixels(const jpeg_dc_plan *plan, const int32_t *records, uint8_t *pixels, size_t stride) {
    pixel_tables tables;
    fill_tables(&tables);
    uint32_t mcu_rows_total = plan->layout == JPEG_DC_YCC_420 ? plan->mcu_rows : plan->output_height;
    pixel_job whole = {plan, &tables, records, pixels, stride, {0, mcu_rows_total}};
    uint64_t pixel_count = (uint64_t)plan->output_width * plan->output_height;
    if (pixel_count >= PARALLEL_MINIMUM_PIXELS && mcu_rows_total > 1) {
        pixel_job lower = whole;
        whole.rows.end = mcu_rows_total / 2;
        lower.rows.first = whole.rows.end;
        pthread_t thread;
        if (pthread_create(&thread, NULL, write_job, &lower) == 0) {
            write_job(&whole);
            pthread_join(thread, NULL);
            return;
        }
        whole.rows.end = mcu_rows_total;
    }
    write_job(&whole);
}
