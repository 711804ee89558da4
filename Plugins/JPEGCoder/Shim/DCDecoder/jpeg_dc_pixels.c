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
#include "jpeg_dc_internal.h"

static void fill_tables(jpeg_dc_pixel_tables *tables) {
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
        tables->red_from_cr[i] = (91881 * x + 32768) >> 16; /* 1.40200 * 2^16 */
        tables->blue_from_cb[i] = (116130 * x + 32768) >> 16; /* 1.77200 * 2^16 */
        tables->green_from_cr[i] = -46802 * x; /* 0.71414 * 2^16 */
        tables->green_from_cb[i] = -22554 * x + 32768; /* 0.34414 * 2^16, plus the rounding half */
    }
}

void jpeg_dc_start_pixels(jpeg_dc_pixel_writer *writer, const jpeg_dc_plan *plan, uint8_t *pixels, size_t stride) {
    writer->plan = plan;
    writer->pixels = pixels;
    writer->stride = stride;
    fill_tables(&writer->tables);
}

static inline void put_rgba(uint8_t *pixel, const jpeg_dc_pixel_tables *tables, uint8_t y, uint8_t cb, uint8_t cr) {
    const uint8_t *clamp = tables->clamp + 384;
    pixel[0] = clamp[y + tables->red_from_cr[cr]];
    pixel[1] = clamp[y + ((tables->green_from_cb[cb] + tables->green_from_cr[cr]) >> 16)];
    pixel[2] = clamp[y + tables->blue_from_cb[cb]];
    pixel[3] = 255;
}

/** A 1×1 block: the DC (as libjpeg's 16-bit coefficient) dequantised, divided by 8 and rounded. */
static inline uint8_t one_by_one(const jpeg_dc_pixel_tables *tables, int32_t dc, int32_t quantizer) {
    return tables->idct_limit[((int32_t)(int16_t)dc * quantizer + 4) >> 3 & 1023];
}

/**
 * The four output pixels of a 2×2 chroma block from its record and DC, row by row; 0 when
 * the dequantised DC is beyond JPEG_DC_TWO_BY_TWO_LIMIT.
 */
static inline int two_by_two(const jpeg_dc_pixel_tables *tables, const int32_t record[4], int32_t dc_value,
                             int32_t quantizer, uint8_t out[4]) {
    int64_t dequantized = (int64_t)(int16_t)dc_value * quantizer;
    if (dequantized > JPEG_DC_TWO_BY_TWO_LIMIT || dequantized < -JPEG_DC_TWO_BY_TWO_LIMIT) return 0;
    int64_t dc = dequantized * 32768;
    for (int row = 0; row < 2; row++) {
        int64_t column_zero = (dc + (row == 0 ? record[1] : -(int64_t)record[1]) + 4096) >> 13;
        int64_t even = column_zero * 32768 + (1 << 19);
        int64_t odd = record[2 + row];
        out[row * 2] = tables->idct_limit[(even + odd) >> 20 & 1023];
        out[row * 2 + 1] = tables->idct_limit[(even - odd) >> 20 & 1023];
    }
    return 1;
}

/** A run of MCUs of one row whose records lie one after another, with their DC corrections. */
typedef struct mcu_segment {
    const int32_t *first_record;
    uint32_t first_column;
    uint32_t end_column;
    int32_t corrections[3];
} mcu_segment;

/** Splits MCU row `mcu_y` where the source switches from the first records to the later ones (at most two segments). */
static int row_segments(const jpeg_dc_plan *plan, const jpeg_dc_record_source *source, uint32_t mcu_y,
                        mcu_segment segments[2]) {
    uint64_t row_start = (uint64_t)mcu_y * plan->mcus_per_row;
    uint64_t row_end = row_start + plan->mcus_per_row;
    uint64_t size = (uint64_t)plan->record_size;
    int count = 0;
    if (source->switch_mcu > row_start) {
        uint64_t end = source->switch_mcu < row_end ? source->switch_mcu : row_end;
        segments[count++] =
            (mcu_segment){source->records + row_start * size, 0, (uint32_t)(end - row_start), {0, 0, 0}};
    }
    if (source->switch_mcu < row_end) {
        uint64_t start = source->switch_mcu > row_start ? source->switch_mcu : row_start;
        const int32_t *record = source->later_records + (start - source->switch_mcu + source->later_first) * size;
        segments[count] = (mcu_segment){record, (uint32_t)(start - row_start), plan->mcus_per_row, {0, 0, 0}};
        for (int c = 0; c < 3; c++) segments[count].corrections[c] = source->corrections[c];
        count++;
    }
    return count;
}

static void write_gray(const jpeg_dc_pixel_writer *writer, const mcu_segment *segment, uint32_t mcu_y) {
    const jpeg_dc_plan *plan = writer->plan;
    const int32_t *record = segment->first_record;
    uint8_t *pixel = writer->pixels + mcu_y * writer->stride + (size_t)segment->first_column * 4;
    for (uint32_t x = segment->first_column; x < segment->end_column; x++, pixel += 4, record++) {
        uint8_t gray = one_by_one(&writer->tables, record[0] + segment->corrections[0], plan->dc_quantizer[0]);
        pixel[0] = pixel[1] = pixel[2] = gray;
        pixel[3] = 255;
    }
}

/** 4:4:4 (one pixel per MCU) and 4:2:2 (two pixels per MCU, chroma repeated). */
static void write_unscaled_chroma(const jpeg_dc_pixel_writer *writer, const mcu_segment *segment, uint32_t mcu_y) {
    const jpeg_dc_plan *plan = writer->plan;
    const int32_t *q = plan->dc_quantizer;
    const int32_t *c = segment->corrections;
    uint32_t luma_blocks = plan->layout == JPEG_DC_YCC_422 ? 2 : 1;
    const int32_t *record = segment->first_record;
    uint8_t *pixel = writer->pixels + mcu_y * writer->stride + (size_t)segment->first_column * luma_blocks * 4;
    for (uint32_t mcu_x = segment->first_column; mcu_x < segment->end_column; mcu_x++, record += plan->record_size) {
        uint8_t cb = one_by_one(&writer->tables, record[luma_blocks] + c[1], q[1]);
        uint8_t cr = one_by_one(&writer->tables, record[luma_blocks + 1] + c[2], q[2]);
        for (uint32_t b = 0; b < luma_blocks && mcu_x * luma_blocks + b < plan->output_width; b++, pixel += 4) {
            put_rgba(pixel, &writer->tables, one_by_one(&writer->tables, record[b] + c[0], q[0]), cb, cr);
        }
    }
}

/** 4:2:0: each MCU gives 2×2 pixels, luma from four 1×1 blocks, chroma from two 2×2 blocks; 0 as two_by_two. */
static int write_420(const jpeg_dc_pixel_writer *writer, const mcu_segment *segment, uint32_t mcu_y) {
    const jpeg_dc_plan *plan = writer->plan;
    const jpeg_dc_pixel_tables *tables = &writer->tables;
    const int32_t *q = plan->dc_quantizer;
    const int32_t *c = segment->corrections;
    uint32_t rows = plan->output_height - mcu_y * 2 < 2 ? 1 : 2;
    const int32_t *record = segment->first_record;
    for (uint32_t mcu_x = segment->first_column; mcu_x < segment->end_column; mcu_x++, record += plan->record_size) {
        uint8_t cb[4], cr[4];
        if (!two_by_two(tables, record + 4, record[4] + c[1], q[1], cb) ||
            !two_by_two(tables, record + 8, record[8] + c[2], q[2], cr)) {
            return 0;
        }
        uint32_t columns = plan->output_width - mcu_x * 2 < 2 ? 1 : 2;
        for (uint32_t row = 0; row < rows; row++) {
            uint8_t *pixel = writer->pixels + (size_t)(mcu_y * 2 + row) * writer->stride + (size_t)mcu_x * 8;
            for (uint32_t column = 0; column < columns; column++, pixel += 4) {
                uint32_t block = row * 2 + column;
                put_rgba(pixel, tables, one_by_one(tables, record[block] + c[0], q[0]), cb[block], cr[block]);
            }
        }
    }
    return 1;
}

int jpeg_dc_write_mcu_rows(const jpeg_dc_pixel_writer *writer, const jpeg_dc_record_source *source, uint32_t first_row,
                           uint32_t end_row) {
    for (uint32_t mcu_y = first_row; mcu_y < end_row; mcu_y++) {
        mcu_segment segments[2];
        int count = row_segments(writer->plan, source, mcu_y, segments);
        for (int i = 0; i < count; i++) {
            switch (writer->plan->layout) {
            case JPEG_DC_GRAY:
                write_gray(writer, &segments[i], mcu_y);
                break;
            case JPEG_DC_YCC_444:
            case JPEG_DC_YCC_422:
                write_unscaled_chroma(writer, &segments[i], mcu_y);
                break;
            case JPEG_DC_YCC_420:
                if (!write_420(writer, &segments[i], mcu_y)) return 0;
                break;
            }
        }
    }
    return 1;
}
