/* Huffman tables of the 1/8-scale fast path: one lookup for short codes, canonical decoding for long ones. */
#include <assert.h>
#include <string.h>

#include "jpeg_dc_internal.h"

/** What skipping one AC symbol costs in bits and how far it moves the coefficient index (0 = end of block). */
static uint16_t skip_entry(uint32_t code_length, uint8_t symbol) {
    uint32_t run = symbol >> 4;
    uint32_t magnitude_bits = symbol & 15;
    uint32_t advance;
    if (magnitude_bits != 0) advance = run + 1;
    else advance = run == 15 ? 16 : 0;
    return (uint16_t)((code_length + magnitude_bits) | advance << 8);
}

/** By the next JPEG_DC_RUN_LOOKAHEAD bits: the code that starts them (length in bits 0-4, 0 = longer; symbol in bits 8-15). */
typedef uint16_t first_code_table[1 << JPEG_DC_RUN_LOOKAHEAD];

/** The symbol whose code starts `offset` bits into `window`, if the whole code lies inside the window. */
static int code_in_window(const first_code_table codes, uint32_t window, uint32_t offset, uint32_t *length,
                          uint8_t *symbol) {
    uint32_t shifted = (window << offset) & ((1u << JPEG_DC_RUN_LOOKAHEAD) - 1);
    uint32_t entry = codes[shifted];
    uint32_t bits = entry & 31;
    if (bits == 0 || offset + bits > JPEG_DC_RUN_LOOKAHEAD) return 0;
    *length = bits;
    *symbol = (uint8_t)(entry >> 8);
    return 1;
}

/** The run entry for one window: as many whole coefficients as start inside it, up to an end of block. */
static uint16_t skip_run_entry(const first_code_table codes, uint32_t window) {
    uint32_t offset = 0, advance = 0, ends_block = 0;
    uint32_t length;
    uint8_t symbol;
    while (offset < JPEG_DC_RUN_LOOKAHEAD && code_in_window(codes, window, offset, &length, &symbol)) {
        uint32_t run = symbol >> 4, magnitude_bits = symbol & 15;
        if (magnitude_bits == 0 && run != 15) {
            offset += length;
            ends_block = 1;
            break;
        }
        uint32_t step = magnitude_bits != 0 ? run + 1 : 16;
        if (advance + step > 63) break;
        offset += length + magnitude_bits;
        advance += step;
    }
    return (uint16_t)(offset | advance << 5 | (ends_block ? JPEG_DC_RUN_ENDS_BLOCK : 0));
}

/** The value entry of a code of `length` bits for `symbol`, followed by `window`'s remaining bits. */
static int32_t value_entry(uint32_t length, uint8_t symbol, int is_ac, uint32_t window) {
    uint32_t run = is_ac ? symbol >> 4 : 0;
    uint32_t magnitude_bits = is_ac ? symbol & 15u : symbol;
    if (is_ac && magnitude_bits == 0) {
        uint32_t kind = run == 15 ? JPEG_DC_VALUE_SIXTEEN_ZEROS : JPEG_DC_VALUE_END_OF_BLOCK;
        return (int32_t)(length | kind << 5);
    }
    uint32_t total = length + magnitude_bits;
    if (total > JPEG_DC_VALUE_LOOKAHEAD) return 0;
    int32_t value = 0;
    if (magnitude_bits != 0) {
        int32_t raw = (int32_t)((window >> (JPEG_DC_VALUE_LOOKAHEAD - total)) & ((1u << magnitude_bits) - 1));
        value = raw < (1 << (magnitude_bits - 1)) ? raw - (1 << magnitude_bits) + 1 : raw;
    }
    return (int32_t)((uint32_t)value << 16 | run << 8 | JPEG_DC_VALUE_COEFFICIENT << 5 | total);
}

int jpeg_dc_build_table(const uint8_t *bits, const uint8_t *symbols, int is_ac, jpeg_dc_huffman *table) {
    memset(table, 0, sizeof *table);
    uint32_t total = 0;
    for (int length = 1; length <= 16; length++) total += bits[length];
    if (total == 0 || total > 256) return 0;
    memcpy(table->symbols, symbols, total);
    if (!is_ac) {
        for (uint32_t i = 0; i < total; i++) {
            if (symbols[i] > 15) return 0;
        }
    }
    static_assert(JPEG_DC_VALUE_LOOKAHEAD <= JPEG_DC_RUN_LOOKAHEAD, "value entries read the first-code table");
    first_code_table codes;
    memset(codes, 0, sizeof codes);
    uint32_t code = 0;
    uint32_t index = 0;
    for (int length = 1; length <= 16; length++) {
        table->symbol_offset[length] = (int32_t)index - (int32_t)code;
        for (uint32_t i = 0; i < bits[length]; i++, code++, index++) {
            /* No code may be all ones (libjpeg refuses such a table), so every code fits its length. */
            if (code + 1 >= (1u << length)) return 0;
            if (length > JPEG_DC_RUN_LOOKAHEAD) continue;
            uint32_t wide_shift = JPEG_DC_RUN_LOOKAHEAD - (uint32_t)length;
            for (uint32_t suffix = 0; suffix < (1u << wide_shift); suffix++) {
                codes[code << wide_shift | suffix] = (uint16_t)(length | symbols[index] << 8);
            }
            if (length > JPEG_DC_LOOKAHEAD) continue;
            uint32_t shift = JPEG_DC_LOOKAHEAD - (uint32_t)length;
            for (uint32_t suffix = 0; suffix < (1u << shift); suffix++) {
                uint32_t prefix = code << shift | suffix;
                table->symbol_by_prefix[prefix] = (uint16_t)(length | symbols[index] << 8);
                if (is_ac) table->skip_by_prefix[prefix] = skip_entry((uint32_t)length, symbols[index]);
            }
        }
        table->largest_code[length] = bits[length] != 0 ? (int32_t)code - 1 : -1;
        code <<= 1;
    }
    if (is_ac) {
        for (uint32_t window = 0; window < (1u << JPEG_DC_RUN_LOOKAHEAD); window++) {
            table->skip_run_by_prefix[window] = skip_run_entry(codes, window);
        }
    }
    for (uint32_t window = 0; window < (1u << JPEG_DC_VALUE_LOOKAHEAD); window++) {
        uint32_t entry = codes[window << (JPEG_DC_RUN_LOOKAHEAD - JPEG_DC_VALUE_LOOKAHEAD)];
        uint32_t length = entry & 31;
        table->value_by_prefix[window] = length != 0 && length <= JPEG_DC_VALUE_LOOKAHEAD
                                             ? value_entry(length, (uint8_t)(entry >> 8), is_ac, window)
                                             : 0;
    }
    return 1;
}
