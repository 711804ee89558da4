/*
 * The 1/8-scale fast path for progressive files (Huffman-coded, 8-bit).
 *
 * The 1/8-scale pixels read the DC of every block and, for the chroma of 4:2:0 files, the
 * coefficients libjpeg's 2×2 reduced IDCT reads (rows and columns 0, 1, 3, 5, 7). This
 * decoder walks the file's markers itself: the DC scans (first and refinement, interleaved
 * or not) and the AC scans of 4:2:0 chroma are decoded into a small coefficient store
 * (one DC per block, all 64 coefficients for 4:2:0 chroma blocks), every other scan is
 * skipped by its markers, and the decode stops as soon as every coefficient the pixels read
 * is final. The store then becomes the baseline path's MCU records, written to pixels by
 * the same code, so the pixels equal libjpeg-turbo's 1/8-scale output. Anything irregular
 * (a bad code, a script that refines what it never sent, a DQT or DAC between scans, data
 * ending before the coefficients are final) returns 0 and leaves the file to libjpeg.
 */
#include <stdlib.h>

#include "jpeg_dc_bits.h"

/** The coefficients one component keeps, and how far each has been sent. */
typedef struct progressive_component {
    /**
     * `per_block` int16 for each block of the MCU-padded block grid: the DC alone, or (4:2:0
     * chroma) the 64 coefficients in zigzag order and a 64-bit mask of the non-zero ones.
     */
    int16_t *coefficients;
    uint32_t per_block;
    /** The padded grid (row stride of the store), and a non-interleaved scan's grid (no padding). */
    uint32_t blocks_per_row;
    uint32_t scan_blocks_per_row;
    uint32_t scan_block_rows;
    /** Blocks per MCU across and down in interleaved scans. */
    uint32_t h;
    uint32_t v;
    /** By zigzag index, the successive-approximation bit the coefficient is known to (-1: not sent yet). */
    int8_t known_to_bit[64];
    /** The zigzag indices the 1/8-scale pixels read. */
    uint64_t needed;
} progressive_component;

/** A Huffman table as the file defines it: built only once a decoded scan uses it. */
typedef struct pending_table {
    /** 0: undefined, 1: defined (not built), 2: built. */
    int state;
    uint8_t bits[17];
    uint8_t symbols[256];
} pending_table;

typedef struct progressive_decoder {
    const jpeg_dc_plan *plan;
    progressive_component components[3];
    pending_table pending[8];
    jpeg_dc_huffman tables[8];
    uint32_t restart_interval;
    /** Room for any scan's unstuffed data plus JPEG_DC_PADDING. */
    uint8_t *buffer;
    /** CLOCK_MONOTONIC, checked before each decoded scan (0 = none). */
    uint64_t deadline_ns;
} progressive_decoder;

typedef struct scan_header {
    int count;
    int component[3];
    int dc_table[3];
    int ac_table[3];
    int ss, se, ah, al;
} scan_header;

/** int16 per block of a component whose AC coefficients are kept: 64 coefficients and their non-zero mask. */
#define BLOCK_WITH_MASK 68

/** The mask of a block's non-zero coefficients (by zigzag index) after its 64 coefficients. */
static inline uint64_t *nonzero_mask(int16_t *coefficients) { return (uint64_t *)(void *)(coefficients + 64); }

static uint32_t divide_rounding_up(uint64_t value, uint64_t divisor) {
    return (uint32_t)((value + divisor - 1) / divisor);
}

static uint64_t band_mask(int ss, int se) {
    uint64_t upper = se == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (se + 1)) - 1;
    return upper & ~(((uint64_t)1 << ss) - 1);
}

/** Reads a DHT segment's tables into `pending`; 0 when it is malformed. */
static int read_tables(progressive_decoder *decoder, const uint8_t *segment, size_t size) {
    while (size > 0) {
        if (size < 17) return 0;
        int table_class = segment[0] >> 4, id = segment[0] & 15;
        if (table_class > 1 || id > 3) return 0;
        pending_table *table = &decoder->pending[table_class * 4 + id];
        table->bits[0] = 0;
        size_t total = 0;
        for (int length = 1; length <= 16; length++) total += table->bits[length] = segment[length];
        if (total > 256 || size < 17 + total) return 0;
        memcpy(table->symbols, segment + 17, total);
        table->state = 1;
        segment += 17 + total;
        size -= 17 + total;
    }
    return 1;
}

static const jpeg_dc_huffman *_Nullable built_table(progressive_decoder *decoder, int slot) {
    pending_table *table = &decoder->pending[slot];
    if (table->state == 1) {
        if (!jpeg_dc_build_table(table->bits, table->symbols, slot >= 4, &decoder->tables[slot])) return NULL;
        table->state = 2;
    }
    return table->state == 2 ? &decoder->tables[slot] : NULL;
}

/** Reads an SOS segment and checks it as libjpeg does for a progressive file; 0 when it is not valid. */
static int read_scan_header(const progressive_decoder *decoder, const uint8_t *segment, size_t size,
                            scan_header *scan) {
    if (size < 1) return 0;
    scan->count = segment[0];
    if (scan->count < 1 || scan->count > decoder->plan->components || size != 4 + 2 * (size_t)scan->count) return 0;
    const uint8_t *tail = segment + 1 + 2 * scan->count;
    scan->ss = tail[0];
    scan->se = tail[1];
    scan->ah = tail[2] >> 4;
    scan->al = tail[2] & 15;
    if (scan->ss == 0 ? scan->se != 0 : (scan->se < scan->ss || scan->se > 63 || scan->count != 1)) return 0;
    if (scan->al > 13 || (scan->ah != 0 && scan->al != scan->ah - 1)) return 0;
    return 1;
}

/** Maps the scan's component ids to frame positions (in frame order, as the MCU layout here assumes). */
static int resolve_components(j_decompress_ptr info, const uint8_t *segment, scan_header *scan) {
    int previous = -1;
    for (int i = 0; i < scan->count; i++) {
        int id = segment[1 + 2 * i], found = -1;
        for (int c = 0; c < info->num_components; c++) {
            if (info->comp_info[c].component_id == id) found = c;
        }
        if (found <= previous) return 0;
        previous = found;
        scan->component[i] = found;
        scan->dc_table[i] = segment[2 + 2 * i] >> 4;
        scan->ac_table[i] = 4 + (segment[2 + 2 * i] & 15);
        if (scan->dc_table[i] > 3 || scan->ac_table[i] > 7) return 0;
    }
    return 1;
}

/** Whether the scan carries a coefficient the 1/8-scale pixels read. */
static int scan_is_needed(const progressive_decoder *decoder, const scan_header *scan) {
    uint64_t band = band_mask(scan->ss, scan->se);
    for (int i = 0; i < scan->count; i++) {
        if (decoder->components[scan->component[i]].needed & band) return 1;
    }
    return 0;
}

/** Checks the script (first scans send what was not sent; refinements go one bit further) and records the scan. */
static int advance_script(progressive_decoder *decoder, const scan_header *scan) {
    for (int i = 0; i < scan->count; i++) {
        progressive_component *component = &decoder->components[scan->component[i]];
        for (int k = scan->ss; k <= scan->se; k++) {
            int expected = scan->ah == 0 ? -1 : scan->ah;
            if (component->known_to_bit[k] != expected) return 0;
            component->known_to_bit[k] = (int8_t)scan->al;
        }
    }
    return 1;
}

static int is_complete(const progressive_decoder *decoder) {
    for (int c = 0; c < decoder->plan->components; c++) {
        const progressive_component *component = &decoder->components[c];
        for (int k = 0; k < 64; k++) {
            if ((component->needed >> k & 1) && component->known_to_bit[k] != 0) return 0;
        }
    }
    return 1;
}

/** Where the scan's entropy-coded data ends (the offset of the next marker); 0 when the bytes end first. */
static size_t entropy_end(const uint8_t *bytes, size_t size, size_t start) {
    size_t read = start;
    for (;;) {
        const uint8_t *marker = memchr(bytes + read, 0xFF, size - read);
        if (marker == NULL) return 0;
        size_t next = (size_t)(marker - bytes) + 1;
        while (next < size && bytes[next] == 0xFF) next++;
        if (next >= size) return 0;
        uint8_t code = bytes[next];
        if (code == 0x00) {
            if (next != (size_t)(marker - bytes) + 1) return 0;
        } else if (code < 0xD0 || code > 0xD7) {
            return next - 1;
        }
        read = next + 1;
    }
}

static inline int32_t decode_value(bit_reader *reader, const jpeg_dc_huffman *table, uint32_t *symbol) {
    refill(reader);
    if (!decode_symbol(reader, table, symbol)) return INT32_MIN;
    return take_signed(reader, *symbol & 15);
}

static inline uint32_t take_bit(bit_reader *reader) {
    uint32_t bit = (uint32_t)(reader->buffer >> 63);
    consume(reader, 1);
    return bit;
}

/** The first DC scan of one block: the DC difference, shifted by the point transform; 0 on bad data. */
static inline int decode_dc_first(bit_reader *reader, const jpeg_dc_huffman *table, int32_t *prediction, int al,
                                  int16_t *coefficients) {
    uint32_t symbol;
    int32_t difference = decode_value(reader, table, &symbol);
    if (difference == INT32_MIN || symbol > 15) return 0;
    int64_t value = (int64_t)*prediction + difference;
    if (value > JPEG_DC_PREDICTION_LIMIT || value < -JPEG_DC_PREDICTION_LIMIT) return 0;
    *prediction = (int32_t)value;
    coefficients[0] = (int16_t)(uint16_t)((uint32_t)value << al);
    return 1;
}

/** The first AC scan of one block, as libjpeg's decode_mcu_AC_first; 0 on bad data. */
static inline int decode_ac_first(bit_reader *reader, const jpeg_dc_huffman *table, const scan_header *scan,
                                  uint32_t *end_of_bands, int16_t *coefficients) {
    if (*end_of_bands > 0) {
        (*end_of_bands)--;
        return 1;
    }
    for (int k = scan->ss; k <= scan->se; k++) {
        uint32_t symbol;
        refill(reader);
        if (!decode_symbol(reader, table, &symbol)) return 0;
        uint32_t run = symbol >> 4, magnitude_bits = symbol & 15;
        if (magnitude_bits != 0) {
            k += (int)run;
            if (k > scan->se) return 0;
            int32_t value = take_signed(reader, magnitude_bits);
            coefficients[k] = (int16_t)(uint16_t)((uint32_t)value << scan->al);
            if (coefficients[k] != 0) *nonzero_mask(coefficients) |= (uint64_t)1 << k;
        } else if (run == 15) {
            k += 15;
        } else {
            uint32_t count = (uint32_t)1 << run;
            if (run != 0) {
                count += (uint32_t)(reader->buffer >> (64 - run));
                consume(reader, run);
            }
            *end_of_bands = count - 1;
            break;
        }
    }
    return 1;
}

/** One refinement bit for a coefficient already non-zero, as libjpeg applies it. */
static inline void refine_nonzero(bit_reader *reader, int16_t *coefficient, int al) {
    if (take_bit(reader) && (*coefficient & (1 << al)) == 0) {
        *coefficient = (int16_t)(*coefficient >= 0 ? *coefficient + (1 << al) : *coefficient - (1 << al));
    }
}

/** A refinement AC scan of one block, as libjpeg's decode_mcu_AC_refine; 0 on bad data. */
static inline int decode_ac_refine(bit_reader *reader, const jpeg_dc_huffman *table, const scan_header *scan,
                                   uint32_t *end_of_bands, int16_t *coefficients) {
    int k = scan->ss;
    if (*end_of_bands == 0) {
        for (; k <= scan->se; k++) {
            uint32_t symbol;
            refill(reader);
            if (!decode_symbol(reader, table, &symbol)) return 0;
            int32_t run = (int32_t)(symbol >> 4), magnitude_bits = (int32_t)(symbol & 15);
            int32_t placed = 0;
            if (magnitude_bits != 0) {
                if (magnitude_bits != 1) return 0;
                placed = take_bit(reader) ? 1 << scan->al : -(1 << scan->al);
            } else if (run != 15) {
                *end_of_bands = (uint32_t)1 << run;
                if (run != 0) {
                    *end_of_bands += (uint32_t)(reader->buffer >> (64 - run));
                    consume(reader, (uint32_t)run);
                }
                break;
            }
            do {
                refill(reader);
                if (coefficients[k] != 0) refine_nonzero(reader, &coefficients[k], scan->al);
                else if (--run < 0) break;
                k++;
            } while (k <= scan->se);
            if (placed != 0) {
                if (k > scan->se) return 0;
                coefficients[k] = (int16_t)placed;
                *nonzero_mask(coefficients) |= (uint64_t)1 << k;
            }
        }
    }
    if (*end_of_bands > 0) {
        /* Inside a run of empty bands only the non-zero coefficients from k on take a bit. */
        uint64_t rest = k > scan->se ? 0 : *nonzero_mask(coefficients) & band_mask(k, scan->se);
        for (; rest != 0; rest &= rest - 1) {
            refill(reader);
            refine_nonzero(reader, &coefficients[__builtin_ctzll(rest)], scan->al);
        }
        (*end_of_bands)--;
    }
    return 1;
}

/** What a scan sends, which decides how its blocks are decoded. */
typedef enum scan_kind { DC_FIRST, DC_REFINEMENT, AC_FIRST, AC_REFINEMENT } scan_kind;

/** Decodes one block of the scan's component `i` into `coefficients`; 0 on bad data. */
static inline __attribute__((always_inline)) int decode_block(bit_reader *reader, const scan_header *scan,
                                                              scan_kind kind, const jpeg_dc_huffman *table,
                                                              int32_t *prediction, uint32_t *end_of_bands,
                                                              int16_t *coefficients) {
    switch (kind) {
    case DC_FIRST:
        return decode_dc_first(reader, table, prediction, scan->al, coefficients);
    case DC_REFINEMENT:
        refill(reader);
        if (take_bit(reader)) coefficients[0] = (int16_t)(coefficients[0] | (1 << scan->al));
        return 1;
    case AC_FIRST:
        return decode_ac_first(reader, table, scan, end_of_bands, coefficients);
    case AC_REFINEMENT:
        return decode_ac_refine(reader, table, scan, end_of_bands, coefficients);
    }
    return 0;
}

static int16_t *block_at(const progressive_component *component, uint32_t column, uint32_t row) {
    return component->coefficients + ((uint64_t)row * component->blocks_per_row + column) * component->per_block;
}

/** Decodes the blocks of one scan of `kind` (a constant in each call, so each kind gets its own loop). */
static inline __attribute__((always_inline)) int decode_units(const progressive_decoder *decoder,
                                                              const scan_header *scan, scan_kind kind,
                                                              const jpeg_dc_huffman *const *tables,
                                                              const jpeg_dc_stream *stream) {
    const jpeg_dc_plan *plan = decoder->plan;
    const progressive_component *single = &decoder->components[scan->component[0]];
    uint32_t units_per_row = scan->count == 1 ? single->scan_blocks_per_row : plan->mcus_per_row;
    uint64_t units = scan->count == 1 ? (uint64_t)units_per_row * single->scan_block_rows : plan->mcu_count;
    bit_reader reader;
    seek(&reader, stream->bytes, 0);
    uint64_t end_bit = (uint64_t)stream->size * 8;
    int32_t predictions[3] = {0, 0, 0};
    uint32_t end_of_bands = 0;
    for (uint64_t unit = 0; unit < units; unit++) {
        if (decoder->restart_interval != 0 && unit != 0 && unit % decoder->restart_interval == 0) {
            uint64_t marker = unit / decoder->restart_interval - 1;
            uint64_t aligned_byte = (bit_position(&reader) + 7) >> 3;
            if (marker >= stream->restart_count || stream->restart_offsets[marker] != aligned_byte) return 0;
            seek(&reader, stream->bytes, aligned_byte * 8);
            predictions[0] = predictions[1] = predictions[2] = 0;
            end_of_bands = 0;
        }
        uint32_t column = (uint32_t)(unit % units_per_row), row = (uint32_t)(unit / units_per_row);
        if (scan->count == 1) {
            int16_t *block = block_at(single, column, row);
            if (!decode_block(&reader, scan, kind, tables[0], &predictions[0], &end_of_bands, block)) return 0;
        } else {
            for (int i = 0; i < scan->count; i++) {
                const progressive_component *component = &decoder->components[scan->component[i]];
                for (uint32_t y = 0; y < component->v; y++) {
                    for (uint32_t x = 0; x < component->h; x++) {
                        int16_t *block = block_at(component, column * component->h + x, row * component->v + y);
                        if (!decode_block(&reader, scan, kind, tables[i], &predictions[i], &end_of_bands, block)) {
                            return 0;
                        }
                    }
                }
            }
        }
        if (bit_position(&reader) > end_bit) return 0;
    }
    return 1;
}

/** Decodes one scan's unstuffed data, with its restart markers; 0 on any irregularity. */
static int decode_scan(progressive_decoder *decoder, const scan_header *scan, const jpeg_dc_stream *stream) {
    scan_kind kind =
        scan->ss == 0 ? (scan->ah == 0 ? DC_FIRST : DC_REFINEMENT) : (scan->ah == 0 ? AC_FIRST : AC_REFINEMENT);
    const jpeg_dc_huffman *tables[3] = {NULL, NULL, NULL};
    for (int i = 0; i < scan->count && kind != DC_REFINEMENT; i++) {
        tables[i] = built_table(decoder, kind == DC_FIRST ? scan->dc_table[i] : scan->ac_table[i]);
        if (tables[i] == NULL) return 0;
    }
    switch (kind) {
    case DC_FIRST:
        return decode_units(decoder, scan, DC_FIRST, tables, stream);
    case DC_REFINEMENT:
        return decode_units(decoder, scan, DC_REFINEMENT, tables, stream);
    case AC_FIRST:
        return decode_units(decoder, scan, AC_FIRST, tables, stream);
    case AC_REFINEMENT:
        return decode_units(decoder, scan, AC_REFINEMENT, tables, stream);
    }
    return 0;
}

/** Unstuffs the entropy-coded data of [start, end) and decodes it as `scan`; 0 on any irregularity. */
static int unstuff_and_decode(progressive_decoder *decoder, const scan_header *scan, const uint8_t *bytes, size_t start,
                              size_t end) {
    jpeg_dc_stream stream;
    memset(&stream, 0, sizeof stream);
    stream.bytes = decoder->buffer;
    size_t written = 0;
    int decoded = 0;
    if (jpeg_dc_unstuff_part(bytes + start, end - start, decoder->buffer, &written, &stream) ==
        JPEG_DC_UNSTUFFED_TO_END) {
        stream.size = written;
        memset(decoder->buffer + written, 0, JPEG_DC_PADDING);
        decoded = decode_scan(decoder, scan, &stream);
    }
    jpeg_dc_free_stream(&stream);
    return decoded;
}

/**
 * Walks the markers from the start of the file, decoding the scans the pixels need, until
 * every needed coefficient is final; 0 on any irregularity or when the data ends first.
 */
static int decode_scans(progressive_decoder *decoder, j_decompress_ptr info, const uint8_t *bytes, size_t size) {
    size_t position = 2;
    int seen_scan = 0;
    while (!is_complete(decoder)) {
        if (position + 4 > size || bytes[position] != 0xFF) return 0;
        while (position + 4 <= size && bytes[position + 1] == 0xFF) position++;
        if (position + 4 > size) return 0;
        uint8_t code = bytes[position + 1];
        if (code == 0xD9 || code == 0x01 || (code >= 0xD0 && code <= 0xD8)) return 0;
        size_t length = (size_t)bytes[position + 2] << 8 | bytes[position + 3];
        if (length < 2 || length > size - position - 2) return 0;
        const uint8_t *segment = bytes + position + 4;
        size_t segment_size = length - 2;
        position += 2 + length;
        if (code == 0xC4) {
            if (!read_tables(decoder, segment, segment_size)) return 0;
        } else if (code == 0xDD) {
            if (segment_size != 2) return 0;
            decoder->restart_interval = (uint32_t)segment[0] << 8 | segment[1];
        } else if (code == 0xDA) {
            scan_header scan;
            if (!read_scan_header(decoder, segment, segment_size, &scan) || !resolve_components(info, segment, &scan)) {
                return 0;
            }
            seen_scan = 1;
            size_t end = entropy_end(bytes, size, position);
            if (end == 0) return 0;
            if (scan_is_needed(decoder, &scan)) {
                if (webimage_deadline_passed(decoder->deadline_ns)) return 0; /* libjpeg's scan loop reports it */
                if (!advance_script(decoder, &scan) || !unstuff_and_decode(decoder, &scan, bytes, position, end)) {
                    return 0;
                }
            }
            position = end;
        } else if (code == 0xCC || (seen_scan && (code == 0xDB || (code >= 0xC0 && code <= 0xCF)))) {
            return 0; /* arithmetic conditioning, or tables or a frame changed between scans */
        }
    }
    return 1;
}

/** Sets up each component's store in `memory` (zeroed by the caller); returns the bytes used past `memory`. */
static size_t lay_out_components(progressive_decoder *decoder, j_decompress_ptr info, uint8_t *_Nullable memory) {
    const jpeg_dc_plan *plan = decoder->plan;
    size_t used = 0;
    for (int c = 0; c < plan->components; c++) {
        progressive_component *component = &decoder->components[c];
        const jpeg_component_info *frame = &info->comp_info[c];
        int is_gray = plan->layout == JPEG_DC_GRAY;
        component->h = is_gray ? 1 : (uint32_t)frame->h_samp_factor;
        component->v = is_gray ? 1 : (uint32_t)frame->v_samp_factor;
        component->blocks_per_row = plan->mcus_per_row * component->h;
        uint32_t block_rows = plan->mcu_rows * component->v;
        uint64_t width = is_gray ? plan->width
                                 : divide_rounding_up((uint64_t)plan->width * (uint32_t)frame->h_samp_factor,
                                                      (uint32_t)info->max_h_samp_factor);
        uint64_t height = is_gray ? plan->height
                                  : divide_rounding_up((uint64_t)plan->height * (uint32_t)frame->v_samp_factor,
                                                       (uint32_t)info->max_v_samp_factor);
        component->scan_blocks_per_row = divide_rounding_up(width, 8);
        component->scan_block_rows = divide_rounding_up(height, 8);
        int two_by_two = plan->layout == JPEG_DC_YCC_420 && c > 0;
        component->per_block = two_by_two ? BLOCK_WITH_MASK : 1;
        component->needed = 1;
        for (int k = 1; k < 64 && two_by_two; k++) {
            if (plan->terms[k].column_slot >= 0) component->needed |= (uint64_t)1 << k;
        }
        memset(component->known_to_bit, -1, sizeof component->known_to_bit);
        if (memory != NULL) component->coefficients = (int16_t *)(void *)(memory + used);
        size_t bytes = (size_t)component->blocks_per_row * block_rows * component->per_block * sizeof(int16_t);
        used += (bytes + 63) & ~(size_t)63;
    }
    return used;
}

/** Makes the MCU records of the baseline path from the store; 0 when a 2×2 block is beyond its limits. */
static int make_records(const progressive_decoder *decoder, int32_t *records) {
    const jpeg_dc_plan *plan = decoder->plan;
    for (uint32_t row = 0; row < plan->mcu_rows; row++) {
        for (uint32_t column = 0; column < plan->mcus_per_row; column++) {
            int32_t *record = records + ((uint64_t)row * plan->mcus_per_row + column) * (uint64_t)plan->record_size;
            int index_in_component = 0;
            for (int b = 0; b < plan->block_count; b++) {
                const jpeg_dc_block *block = &plan->blocks[b];
                if (b > 0 && block->component != plan->blocks[b - 1].component) index_in_component = 0;
                const progressive_component *component = &decoder->components[block->component];
                uint32_t x = (uint32_t)index_in_component % component->h;
                uint32_t y = (uint32_t)index_in_component / component->h;
                index_in_component++;
                const int16_t *coefficients = block_at(component, column * component->h + x, row * component->v + y);
                int32_t *slot = record + block->record_offset;
                slot[0] = coefficients[0];
                if (block->kind == JPEG_DC_BLOCK_DC_ONLY) continue;
                int64_t even[5] = {0, 0, 0, 0, 0}, odd[5] = {0, 0, 0, 0, 0};
                uint64_t magnitudes = 0;
                for (uint64_t read = component->needed & ~(uint64_t)1; read != 0; read &= read - 1) {
                    const jpeg_dc_term *term = &plan->terms[__builtin_ctzll(read)];
                    int16_t value = coefficients[__builtin_ctzll(read)];
                    if (value == 0) continue;
                    int64_t dequantized = (int64_t)value * block->quantization[term->natural_index];
                    magnitudes |= (uint64_t)(dequantized < 0 ? -dequantized : dequantized);
                    if (term->is_even) even[term->column_slot] += dequantized;
                    else odd[term->column_slot] += dequantized * term->odd_weight;
                }
                if (magnitudes > JPEG_DC_TWO_BY_TWO_LIMIT || !jpeg_dc_fold_two_by_two(even, odd, slot)) return 0;
            }
        }
    }
    return 1;
}

static size_t rounded_to_cache_line(uint64_t size) { return (size_t)((size + 63) & ~(uint64_t)63); }

int jpeg_dc_decode_progressive(j_decompress_ptr info, const jpeg_dc_plan *plan, const uint8_t *bytes, size_t size,
                               uint8_t *pixels, size_t stride, uint64_t deadline_ns) {
    progressive_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return 0;
    decoder->plan = plan;
    decoder->deadline_ns = deadline_ns;
    size_t store_size = lay_out_components(decoder, info, NULL);
    uint64_t records_size = plan->mcu_count * (uint64_t)plan->record_size * sizeof(int32_t);
    size_t buffer_size = rounded_to_cache_line((uint64_t)size + JPEG_DC_PADDING);
    int route = 0;
    if (records_size + store_size <= JPEG_DC_MAX_RECORD_BYTES) {
        uint8_t *scratch = jpeg_dc_take_scratch(buffer_size + rounded_to_cache_line(records_size) + store_size);
        jpeg_dc_pixel_writer *writer = malloc(sizeof *writer);
        if (scratch != NULL && writer != NULL) {
            decoder->buffer = scratch;
            int32_t *records = (int32_t *)(void *)(scratch + buffer_size);
            uint8_t *store = scratch + buffer_size + rounded_to_cache_line(records_size);
            memset(store, 0, store_size);
            lay_out_components(decoder, info, store);
            if (decode_scans(decoder, info, bytes, size) && make_records(decoder, records)) {
                jpeg_dc_start_pixels(writer, plan, pixels, stride);
                jpeg_dc_record_source source = {
                    .records = records, .switch_mcu = plan->mcu_count, .later_records = records};
                if (jpeg_dc_write_mcu_rows(writer, &source, 0, plan->mcu_rows)) route = JPEG_SHIM_DC_PROGRESSIVE;
            }
        }
        free(writer);
        jpeg_dc_return_scratch(scratch);
    }
    free(decoder);
    return route;
}
