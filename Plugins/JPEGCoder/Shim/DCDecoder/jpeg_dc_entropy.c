/*
 * Entropy decoding of the 1/8-scale fast path: a 64-bit bit reader over the unstuffed data
 * and the MCU loop that keeps only what the 1/8-scale pixels need.
 */
#include <string.h>

#include "jpeg_dc_bits.h"

/** Adds the block's DC difference to `prediction`; 0 on a bad code or a prediction out of range. */
static inline int decode_dc(bit_reader *reader, const jpeg_dc_huffman *table, int32_t *prediction) {
    int32_t entry = table->value_by_prefix[reader->buffer >> (64 - JPEG_DC_VALUE_LOOKAHEAD)];
    refill(reader);
    int64_t value;
    if (entry & 31) {
        consume(reader, (uint32_t)entry & 31);
        value = (int64_t)*prediction + (entry >> 16);
    } else {
        uint32_t magnitude_bits;
        if (!decode_symbol(reader, table, &magnitude_bits)) return 0;
        value = (int64_t)*prediction + take_signed(reader, magnitude_bits);
    }
    if (value > JPEG_DC_PREDICTION_LIMIT || value < -JPEG_DC_PREDICTION_LIMIT) return 0;
    *prediction = (int32_t)value;
    return 1;
}

/**
 * Skips the AC coefficients of a block: one lookup for every whole coefficient in the next
 * JPEG_DC_RUN_LOOKAHEAD bits while that stays inside the block, otherwise one coefficient at a time.
 */
static inline int skip_ac(bit_reader *reader, const jpeg_dc_huffman *table) {
    uint32_t index = 1;
    while (index < 64) {
        uint32_t run = table->skip_run_by_prefix[reader->buffer >> (64 - JPEG_DC_RUN_LOOKAHEAD)];
        refill(reader);
        if (run != 0 && index + ((run >> 5) & 127) < 64) {
            consume(reader, run & 31);
            if (run & JPEG_DC_RUN_ENDS_BLOCK) break;
            index += (run >> 5) & 127;
            continue;
        }
        uint32_t entry = table->skip_by_prefix[reader->buffer >> (64 - JPEG_DC_LOOKAHEAD)];
        if (entry & 31) {
            consume(reader, entry & 31);
            uint32_t advance = entry >> 8;
            if (advance == 0) break;
            index += advance;
            continue;
        }
        uint32_t symbol;
        if (!decode_long_code(reader, table, &symbol)) return 0;
        uint32_t coefficient_run = symbol >> 4, magnitude_bits = symbol & 15;
        consume(reader, magnitude_bits);
        if (magnitude_bits != 0) index += coefficient_run + 1;
        else if (coefficient_run == 15) index += 16;
        else break;
    }
    return 1;
}

static inline int fits_int32(int64_t value) { return value >= INT32_MIN && value <= INT32_MAX; }

/** libjpeg's DESCALE: divide by 2^bits, rounding half up. */
static inline int64_t descale(int64_t value, int bits) { return (value + ((int64_t)1 << (bits - 1))) >> bits; }

int jpeg_dc_fold_two_by_two(const int64_t *even, const int64_t *odd, int32_t *record) {
    int64_t first_row[5] = {0}, second_row[5] = {0};
    for (int slot = 1; slot < 5; slot++) {
        first_row[slot] = descale(even[slot] * 32768 + odd[slot], 13);
        second_row[slot] = descale(even[slot] * 32768 - odd[slot], 13);
        if (!fits_int32(first_row[slot]) || !fits_int32(second_row[slot])) return 0;
    }
    int64_t first_row_odd = first_row[1] * 29692 - first_row[2] * 10426 + first_row[3] * 6967 - first_row[4] * 5906;
    int64_t second_row_odd =
        second_row[1] * 29692 - second_row[2] * 10426 + second_row[3] * 6967 - second_row[4] * 5906;
    if (!fits_int32(odd[0]) || !fits_int32(first_row_odd) || !fits_int32(second_row_odd)) return 0;
    record[1] = (int32_t)odd[0];
    record[2] = (int32_t)first_row_odd;
    record[3] = (int32_t)second_row_odd;
    return 1;
}

/**
 * Decodes the AC coefficients of a chroma block that libjpeg's 2×2 reduced IDCT will read
 * and folds them into the record's three DC-independent integers (see jpeg_dc_pixels.c):
 * column 0's odd part, and the odd part of each of the two output rows.
 */
static int decode_two_by_two(bit_reader *reader, const jpeg_dc_plan *plan, const jpeg_dc_block *block,
                             int32_t *record) {
    int64_t even[5] = {0, 0, 0, 0, 0};
    int64_t odd[5] = {0, 0, 0, 0, 0};
    /* Every magnitude ORed together: below 2^11 exactly when each one is. */
    uint64_t magnitudes = 0;
    uint32_t index = 1;
    while (index < 64) {
        int32_t entry = block->ac_table->value_by_prefix[reader->buffer >> (64 - JPEG_DC_VALUE_LOOKAHEAD)];
        refill(reader);
        int32_t value;
        if (entry & 31) {
            consume(reader, (uint32_t)entry & 31);
            uint32_t kind = ((uint32_t)entry >> 5) & 3;
            if (kind == JPEG_DC_VALUE_END_OF_BLOCK) break;
            if (kind == JPEG_DC_VALUE_SIXTEEN_ZEROS) {
                index += 16;
                continue;
            }
            index += ((uint32_t)entry >> 8) & 15;
            value = entry >> 16;
        } else {
            uint32_t symbol;
            if (!decode_symbol(reader, block->ac_table, &symbol)) return 0;
            uint32_t run = symbol >> 4, magnitude_bits = symbol & 15;
            if (magnitude_bits == 0) {
                if (run != 15) break;
                index += 16;
                continue;
            }
            index += run;
            value = take_signed(reader, magnitude_bits);
        }
        if (index > 63) return 0; /* libjpeg would overwrite coefficient 63; leave such data to it */
        const jpeg_dc_term *term = &plan->terms[index];
        if (term->column_slot >= 0) {
            int64_t dequantized = (int64_t)value * block->quantization[term->natural_index];
            magnitudes |= (uint64_t)(dequantized < 0 ? -dequantized : dequantized);
            if (term->is_even) even[term->column_slot] += dequantized;
            else odd[term->column_slot] += dequantized * term->odd_weight;
        }
        index++;
    }
    if (magnitudes > JPEG_DC_TWO_BY_TWO_LIMIT) return 0;
    return jpeg_dc_fold_two_by_two(even, odd, record);
}

static inline int decode_mcu(bit_reader *reader, const jpeg_dc_plan *plan, int32_t predictions[3], int32_t *record) {
    for (int b = 0; b < plan->block_count; b++) {
        const jpeg_dc_block *block = &plan->blocks[b];
        if (!decode_dc(reader, block->dc_table, &predictions[block->component])) return 0;
        int32_t *slot = record + block->record_offset;
        slot[0] = predictions[block->component];
        if (block->kind == JPEG_DC_BLOCK_DC_ONLY) {
            if (!skip_ac(reader, block->ac_table)) return 0;
        } else if (!decode_two_by_two(reader, plan, block, slot)) {
            return 0;
        }
    }
    return 1;
}

uint64_t jpeg_dc_decode_run(const jpeg_dc_plan *plan, const jpeg_dc_stream *stream, jpeg_dc_cursor *cursor,
                            uint64_t count, uint64_t stop_bit, int32_t *records, uint64_t *start_bits) {
    bit_reader reader;
    seek(&reader, stream->bytes, cursor->bit);
    int32_t predictions[3] = {cursor->predictions[0], cursor->predictions[1], cursor->predictions[2]};
    uint64_t end_bit = (uint64_t)stream->size * 8;
    uint64_t decoded = 0;
    while (decoded < count) {
        uint64_t mcu = cursor->mcu + decoded;
        if (plan->restart_interval != 0 && mcu != 0 && mcu % plan->restart_interval == 0) {
            uint64_t marker = mcu / plan->restart_interval - 1;
            uint64_t aligned_byte = (bit_position(&reader) + 7) >> 3;
            if (marker >= stream->restart_count || stream->restart_offsets[marker] != aligned_byte) {
                cursor->failed = 1;
                break;
            }
            seek(&reader, stream->bytes, aligned_byte * 8);
            predictions[0] = predictions[1] = predictions[2] = 0;
        }
        uint64_t start = bit_position(&reader);
        if (start >= stop_bit) break;
        if (start >= end_bit) {
            cursor->failed = 1;
            break;
        }
        int32_t saved[3] = {predictions[0], predictions[1], predictions[2]};
        if (!decode_mcu(&reader, plan, predictions, records + decoded * (uint64_t)plan->record_size) ||
            bit_position(&reader) > end_bit) {
            predictions[0] = saved[0];
            predictions[1] = saved[1];
            predictions[2] = saved[2];
            seek(&reader, stream->bytes, start);
            cursor->failed = 1;
            break;
        }
        if (start_bits != NULL) start_bits[decoded] = start;
        decoded++;
    }
    cursor->mcu += decoded;
    cursor->bit = bit_position(&reader);
    memcpy(cursor->predictions, predictions, sizeof predictions);
    return decoded;
}
