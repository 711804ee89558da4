/* The bit reader of the 1/8-scale fast path over unstuffed entropy-coded data, and Huffman decoding with it. */
#ifndef WEBIMAGE_JPEG_DC_BITS_H
#define WEBIMAGE_JPEG_DC_BITS_H

#include <string.h>

#include "jpeg_dc_internal.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/** Reads bits most significant first; `buffer` holds `count` valid bits at its top. */
typedef struct bit_reader {
    const uint8_t *start;
    const uint8_t *next;
    uint64_t buffer;
    uint32_t count;
} bit_reader;

static inline uint64_t load_big_endian(const uint8_t *bytes) {
    uint64_t value;
    memcpy(&value, bytes, sizeof value);
    return __builtin_bswap64(value);
}

/**
 * Tops the buffer up to at least 56 bits (whole bytes only; the bits below stay correct).
 * Its top bits do not change, so the decoders look a code up first and refill while the
 * lookup is under way: between refills at most 31 bits are consumed, so at least 25 bits
 * (more than any lookup reads) are always in the buffer.
 */
static inline void refill(bit_reader *reader) {
    reader->buffer |= load_big_endian(reader->next) >> reader->count;
    reader->next += (63 - reader->count) >> 3;
    reader->count |= 56;
}

static inline void consume(bit_reader *reader, uint32_t bits) {
    reader->buffer <<= bits;
    reader->count -= bits;
}

static inline uint64_t bit_position(const bit_reader *reader) {
    return (uint64_t)(reader->next - reader->start) * 8 - reader->count;
}

static inline void seek(bit_reader *reader, const uint8_t *start, uint64_t bit) {
    reader->start = start;
    reader->next = start + (bit >> 3);
    reader->buffer = 0;
    reader->count = 0;
    refill(reader);
    consume(reader, (uint32_t)(bit & 7));
}

/** The signed value of `bits` magnitude bits, as JPEG's EXTEND procedure defines it. */
static inline int32_t take_signed(bit_reader *reader, uint32_t bits) {
    if (bits == 0) return 0;
    int32_t raw = (int32_t)(reader->buffer >> (64 - bits));
    consume(reader, bits);
    return raw < (1 << (bits - 1)) ? raw - (1 << bits) + 1 : raw;
}

/** Decodes a code longer than the lookahead; 0 for a code the table does not have. */
static inline int decode_long_code(bit_reader *reader, const jpeg_dc_huffman *table, uint32_t *symbol) {
    uint32_t peek = (uint32_t)(reader->buffer >> 48);
    for (int length = JPEG_DC_LOOKAHEAD + 1; length <= 16; length++) {
        int32_t code = (int32_t)(peek >> (16 - length));
        if (code <= table->largest_code[length]) {
            consume(reader, (uint32_t)length);
            *symbol = table->symbols[code + table->symbol_offset[length]];
            return 1;
        }
    }
    return 0;
}

/** Needs at least 16 bits in the buffer. */
static inline int decode_symbol(bit_reader *reader, const jpeg_dc_huffman *table, uint32_t *symbol) {
    uint32_t entry = table->symbol_by_prefix[reader->buffer >> (64 - JPEG_DC_LOOKAHEAD)];
    if (entry & 31) {
        consume(reader, entry & 31);
        *symbol = entry >> 8;
        return 1;
    }
    return decode_long_code(reader, table, symbol);
}

#pragma GCC visibility pop

#endif
