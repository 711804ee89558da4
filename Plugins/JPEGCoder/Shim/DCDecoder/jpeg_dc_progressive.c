/*
 * The 1/8-scale fast path for progressive files (Huffman-coded, 8-bit).
 *
 * The 1/8-scale pixels read the DC of every block and, for the chroma of 4:2:0 files, the
 * coefficients libjpeg's 2×2 reduced IDCT reads (rows and columns 0, 1, 3, 5, 7). This
 * decoder first walks the file's markers and plans the scans that carry those: the DC scans
 * (first and refinement, interleaved or not) and the AC scans of 4:2:0 chroma; every other
 * scan is passed over by its extent (the next marker), and the walk stops as soon as every
 * coefficient the pixels read is final. Then it decodes the planned scans into a small
 * store: 2 bytes a block for the DCs (zeroed for each decode, 0.6 MB for 12 MP) and one
 * cache line a 4:2:0 chroma block (a mask of its non-zero AC coefficients and the 24 values
 * the IDCT reads; the first AC scan clears each mask as it passes, so nothing else is
 * zeroed). DC and AC scans touch different memory and never depend on each other, so for
 * large files the AC scans run on a second thread, and then each thread turns half of the
 * MCU rows into the baseline path's records and writes their pixels with the same code, so
 * the pixels equal libjpeg-turbo's 1/8-scale output. Anything irregular (a bad code, a script
 * that refines what it never sent, a DQT or DAC between scans, data ending before the
 * coefficients are final) returns 0 and leaves the file to libjpeg.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "jpeg_dc_bits.h"

/** The AC coefficients libjpeg's 2×2 reduced IDCT reads (rows and columns 0, 1, 3, 5, 7). */
#define TWO_BY_TWO_SLOTS 24

/**
 * A 4:2:0 chroma block as its AC scans leave it, in one cache line. Not cleared between
 * decodes: the first AC scan of the component clears `nonzero` as it passes each block.
 */
typedef struct chroma_block {
    /** By zigzag index, the AC coefficients that are not zero; a clear bit means zero, whatever `values` holds. */
    uint64_t nonzero;
    /** The coefficients the 2×2 IDCT reads, by slot (see progressive_component.slot_of). */
    int16_t values[TWO_BY_TWO_SLOTS];
    int16_t unused[4];
} chroma_block;

_Static_assert(sizeof(chroma_block) == 64, "a chroma block fills one cache line");

/** The coefficients one component keeps, and how far each has been sent. */
typedef struct progressive_component {
    /** The DC of each block of the MCU-padded block grid (zeroed for each decode). */
    int16_t *dc;
    /** 4:2:0 chroma only: the AC coefficients of each block of the grid (NULL otherwise). */
    chroma_block *_Nullable ac;
    /** The padded grid (row stride of the store), and a non-interleaved scan's grid (no padding). */
    uint32_t blocks_per_row;
    uint32_t block_rows;
    uint32_t scan_blocks_per_row;
    uint32_t scan_block_rows;
    /** Blocks per MCU across and down in interleaved scans. */
    uint32_t h;
    uint32_t v;
    /** By zigzag index, the successive-approximation bit the coefficient is known to (-1: not sent yet). */
    int8_t known_to_bit[64];
    /** By zigzag index, the coefficient's slot in a chroma_block (-1: only whether it is zero is kept). */
    int8_t slot_of[64];
    /** The zigzag indices the 1/8-scale pixels read. */
    uint64_t needed;
    /** Set once an AC scan of the component is planned (the first one clears each block's `nonzero`). */
    int ac_planned;
    /** The last AC scan planned for it (its index in progressive_decoder.scans), which folds each block. */
    size_t last_ac_scan;
    /** 4:2:0 chroma: the plan's block of this component in an MCU (its record offset and quantisers). */
    const jpeg_dc_block *_Nullable two_by_two_block;
} progressive_component;

/** A Huffman table as the file defines it: built by the thread that decodes a scan using it. */
typedef struct pending_table {
    /** 0: undefined, 1: defined. */
    int state;
    uint8_t bits[17];
    uint8_t symbols[256];
} pending_table;

/** What a scan sends, which decides how its blocks are decoded. */
typedef enum scan_kind { DC_FIRST, DC_REFINEMENT, AC_FIRST, AC_REFINEMENT } scan_kind;

typedef struct scan_header {
    int count;
    int component[3];
    int dc_table[3];
    int ac_table[3];
    int ss, se, ah, al;
} scan_header;

/** A scan to decode, found by the walk over the markers, with what it needs from the segments before it. */
typedef struct planned_scan {
    scan_header header;
    scan_kind kind;
    /** An AC scan that clears each block's `nonzero` first (the component's first AC scan). */
    int clears;
    /**
     * An AC scan that folds each block it decodes into its MCU record (the component's last:
     * the coefficients are final, and the block is still in the cache).
     */
    int folds;
    /** Its entropy-coded data: [start, end) of the file. */
    size_t start;
    size_t end;
    uint32_t restart_interval;
    /** The table of each of its components (DC or AC by kind; unused for DC refinements). */
    pending_table tables[3];
} planned_scan;

typedef struct progressive_decoder {
    const jpeg_dc_plan *plan;
    progressive_component components[3];
    pending_table pending[8];
    uint32_t restart_interval;
    /** The scans to decode, in file order. */
    planned_scan *_Nullable scans;
    size_t scan_count;
    size_t scan_capacity;
    /** CLOCK_MONOTONIC, checked before each decoded scan (0 = none). */
    uint64_t deadline_ns;
    /** Set by a thread that failed, so that the other stops too. */
    _Atomic int failed;
} progressive_decoder;

/**
 * One thread's share: the DC scans or the AC scans (they touch different memory), then,
 * once both are decoded, MCU rows of the records and pixels.
 */
typedef struct scan_worker {
    progressive_decoder *decoder;
    /** Decodes the scans with ss == 0 (`dc_scans` set) or the others. */
    int dc_scans;
    /** Room for its largest scan's unstuffed data plus JPEG_DC_PADDING. */
    uint8_t *buffer;
    /** The whole file. */
    const uint8_t *bytes;
    /** The tables of the scan being decoded. */
    jpeg_dc_huffman tables[3];
    /** Where the MCU records go, and the writer of the pixels. */
    int32_t *records;
    const jpeg_dc_pixel_writer *writer;
    /** The MCU rows [first_row, end_row) it writes once every scan is decoded. */
    uint32_t first_row;
    uint32_t end_row;
    /** With two threads: where each waits for the other's scans before writing rows (NULL with one). */
    pthread_barrier_t *_Nullable scans_decoded;
} scan_worker;

/**
 * Both the DC and the AC scans to decode need at least this many bytes of entropy-coded
 * data for the AC scans to get a thread of their own (bytes; thread start-up costs about as
 * much as decoding 4 KiB).
 */
#define TWO_THREAD_BYTES ((size_t)16 << 10)

static uint32_t divide_rounding_up(uint64_t value, uint64_t divisor) {
    return (uint32_t)((value + divisor - 1) / divisor);
}

/** The bits from..to_exclusive - 1 (from <= to_exclusive <= 64). */
static uint64_t bits_between(int from, int to_exclusive) {
    uint64_t below_end = to_exclusive >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << to_exclusive) - 1;
    return from >= 64 ? 0 : below_end & ~(((uint64_t)1 << from) - 1);
}

static uint64_t band_mask(int ss, int se) { return bits_between(ss, se + 1); }

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
                                  int16_t *dc) {
    /* A code and its magnitude bits in one lookup when they fit (DC tables have no symbol above 15). */
    int32_t entry = table->value_by_prefix[reader->buffer >> (64 - JPEG_DC_VALUE_LOOKAHEAD)];
    refill(reader);
    int32_t difference;
    if (entry & 31) {
        consume(reader, (uint32_t)entry & 31);
        difference = entry >> 16;
    } else {
        uint32_t symbol;
        difference = decode_value(reader, table, &symbol);
        if (difference == INT32_MIN) return 0;
    }
    int64_t value = (int64_t)*prediction + difference;
    if (value > JPEG_DC_PREDICTION_LIMIT || value < -JPEG_DC_PREDICTION_LIMIT) return 0;
    *prediction = (int32_t)value;
    *dc = (int16_t)(uint16_t)((uint32_t)value << al);
    return 1;
}

/** The first AC scan of one block, as libjpeg's decode_mcu_AC_first; 0 on bad data. */
static inline int decode_ac_first(bit_reader *reader, const jpeg_dc_huffman *table, const scan_header *scan,
                                  const int8_t *slot_of, uint32_t *end_of_bands, chroma_block *block) {
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
            int16_t value = (int16_t)(uint16_t)((uint32_t)take_signed(reader, magnitude_bits) << scan->al);
            if (value != 0) {
                block->nonzero |= (uint64_t)1 << k;
                if (slot_of[k] >= 0) block->values[slot_of[k]] = value;
            }
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

/**
 * Reads one correction bit for each non-zero coefficient in `positions` and applies it as
 * libjpeg does to those whose values are kept (the others stay non-zero whatever the bit).
 */
static inline void correct_nonzero(bit_reader *reader, chroma_block *block, uint64_t positions, int al,
                                   const int8_t *slot_of) {
    int16_t step = (int16_t)(1 << al);
    for (; positions != 0; positions &= positions - 1) {
        if (reader->count == 0) refill(reader);
        uint32_t bit = take_bit(reader);
        int slot = slot_of[__builtin_ctzll(positions)];
        if (bit && slot >= 0 && (block->values[slot] & step) == 0) {
            int16_t *value = &block->values[slot];
            *value = (int16_t)(*value >= 0 ? *value + step : *value - step);
        }
    }
}

/**
 * A refinement AC scan of one block, as libjpeg's decode_mcu_AC_refine; 0 on bad data.
 * Each symbol's run of zeros is found in the block's non-zero mask at once, instead of
 * walking the coefficients one by one.
 */
static inline int decode_ac_refine(bit_reader *reader, const jpeg_dc_huffman *table, const scan_header *scan,
                                   const int8_t *slot_of, uint32_t *end_of_bands, chroma_block *block) {
    int k = scan->ss;
    uint64_t nonzero = block->nonzero;
    if (*end_of_bands == 0) {
        while (k <= scan->se) {
            uint32_t symbol;
            refill(reader);
            if (!decode_symbol(reader, table, &symbol)) return 0;
            int run = (int)(symbol >> 4), magnitude_bits = (int)(symbol & 15);
            int16_t placed = 0;
            if (magnitude_bits != 0) {
                if (magnitude_bits != 1) return 0;
                placed = (int16_t)(take_bit(reader) ? 1 << scan->al : -(1 << scan->al));
            } else if (run != 15) {
                *end_of_bands = (uint32_t)1 << run;
                if (run != 0) {
                    *end_of_bands += (uint32_t)(reader->buffer >> (64 - run));
                    consume(reader, (uint32_t)run);
                }
                break;
            }
            /* The zero coefficient where the run ends (the new one's place), past se when the band has too few. */
            uint64_t zeros = ~nonzero & band_mask(k, scan->se);
            for (int skipped = 0; skipped < run; skipped++) zeros &= zeros - 1;
            int stop = zeros == 0 ? scan->se + 1 : __builtin_ctzll(zeros);
            correct_nonzero(reader, block, nonzero & bits_between(k, stop), scan->al, slot_of);
            if (placed != 0) {
                if (stop > scan->se) return 0;
                nonzero |= (uint64_t)1 << stop;
                if (slot_of[stop] >= 0) block->values[slot_of[stop]] = placed;
            }
            k = stop + 1;
        }
    }
    if (*end_of_bands > 0) {
        /* Inside a run of empty bands only the non-zero coefficients from k on take a bit. */
        if (k <= scan->se) correct_nonzero(reader, block, nonzero & band_mask(k, scan->se), scan->al, slot_of);
        (*end_of_bands)--;
    }
    block->nonzero = nonzero;
    return 1;
}

/**
 * Whether a scan of `units` units used its data as libjpeg does: every restart marker the
 * data has is one the units expect, and the last unit ends in the data's last byte. libjpeg
 * stops at any marker, so a unit reading across one left over (or across the end) decodes
 * differently there; such a scan is left to libjpeg.
 */
static int ended_cleanly(const bit_reader *reader, const jpeg_dc_stream *stream, uint32_t interval, uint64_t units) {
    uint64_t expected_restarts = interval == 0 ? 0 : (units - 1) / interval;
    return stream->restart_count == expected_restarts && (bit_position(reader) + 7) / 8 == stream->size;
}

/**
 * At a restart marker's place (every `interval` units from the scan's start), moves the
 * reader past it and resets the predictions; 0 when the marker is not where it must be.
 */
static inline int restart_if_due(bit_reader *reader, const jpeg_dc_stream *stream, uint32_t interval, uint64_t unit,
                                 int32_t *predictions, uint32_t *end_of_bands) {
    if (interval == 0 || unit == 0 || unit % interval != 0) return 1;
    uint64_t marker = unit / interval - 1;
    uint64_t aligned_byte = (bit_position(reader) + 7) >> 3;
    if (marker >= stream->restart_count || stream->restart_offsets[marker] != aligned_byte) return 0;
    seek(reader, stream->bytes, aligned_byte * 8);
    predictions[0] = predictions[1] = predictions[2] = 0;
    *end_of_bands = 0;
    return 1;
}

/** Decodes a DC scan (first or refinement, a constant in each call) into the components' DC stores. */
static inline __attribute__((always_inline)) int decode_dc_scan(const progressive_decoder *decoder,
                                                                const planned_scan *planned, scan_kind kind,
                                                                const jpeg_dc_huffman *const *tables,
                                                                const jpeg_dc_stream *stream) {
    const jpeg_dc_plan *plan = decoder->plan;
    const scan_header *scan = &planned->header;
    const progressive_component *single = &decoder->components[scan->component[0]];
    uint32_t units_per_row = scan->count == 1 ? single->scan_blocks_per_row : plan->mcus_per_row;
    uint32_t unit_rows = scan->count == 1 ? single->scan_block_rows : plan->mcu_rows;
    int16_t refinement_bit = (int16_t)(1 << scan->al);
    bit_reader reader;
    seek(&reader, stream->bytes, 0);
    uint64_t end_bit = (uint64_t)stream->size * 8;
    int32_t predictions[3] = {0, 0, 0};
    uint32_t end_of_bands = 0;
    uint64_t unit = 0;
    for (uint32_t row = 0; row < unit_rows; row++) {
        for (uint32_t column = 0; column < units_per_row; column++, unit++) {
            if (!restart_if_due(&reader, stream, planned->restart_interval, unit, predictions, &end_of_bands)) {
                return 0;
            }
            /* A refinement takes one bit a block, and an MCU has at most JPEG_DC_MAX_BLOCKS. */
            if (kind == DC_REFINEMENT) refill(&reader);
            for (int i = 0; i < scan->count; i++) {
                const progressive_component *component = &decoder->components[scan->component[i]];
                uint32_t across = scan->count == 1 ? 1 : component->h, down = scan->count == 1 ? 1 : component->v;
                int16_t *dc = component->dc + (uint64_t)row * down * component->blocks_per_row + column * across;
                for (uint32_t y = 0; y < down; y++, dc += component->blocks_per_row) {
                    for (uint32_t x = 0; x < across; x++) {
                        if (kind == DC_FIRST) {
                            if (!decode_dc_first(&reader, tables[i], &predictions[i], scan->al, &dc[x])) return 0;
                        } else {
                            if (take_bit(&reader)) dc[x] = (int16_t)(dc[x] | refinement_bit);
                        }
                    }
                }
            }
            if (bit_position(&reader) > end_bit) return 0;
        }
    }
    return ended_cleanly(&reader, stream, planned->restart_interval, unit);
}

/**
 * Folds a 4:2:0 chroma block's final AC coefficients into its MCU record's integers 1...3,
 * which do not depend on the DC (see jpeg_dc_pixels.c); 0 when the block is beyond the 2×2
 * IDCT's limits.
 */
static int fold_block(const jpeg_dc_plan *plan, const progressive_component *component, const chroma_block *block,
                      int32_t *record) {
    const uint16_t *quantization = component->two_by_two_block->quantization;
    int64_t even[5] = {0, 0, 0, 0, 0}, odd[5] = {0, 0, 0, 0, 0};
    uint64_t magnitudes = 0;
    for (uint64_t read = block->nonzero & component->needed & ~(uint64_t)1; read != 0; read &= read - 1) {
        int k = __builtin_ctzll(read);
        const jpeg_dc_term *term = &plan->terms[k];
        int64_t dequantized = (int64_t)block->values[component->slot_of[k]] * quantization[term->natural_index];
        magnitudes |= (uint64_t)(dequantized < 0 ? -dequantized : dequantized);
        if (term->is_even) even[term->column_slot] += dequantized;
        else odd[term->column_slot] += dequantized * term->odd_weight;
    }
    return magnitudes <= JPEG_DC_TWO_BY_TWO_LIMIT && jpeg_dc_fold_two_by_two(even, odd, record);
}

/** Decodes an AC scan (one component; first or refinement, a constant in each call) into its chroma blocks. */
static inline __attribute__((always_inline)) int decode_ac_scan(const scan_worker *worker, const planned_scan *planned,
                                                                scan_kind kind, const jpeg_dc_huffman *table,
                                                                const jpeg_dc_stream *stream) {
    const jpeg_dc_plan *plan = worker->decoder->plan;
    const scan_header *scan = &planned->header;
    const progressive_component *component = &worker->decoder->components[scan->component[0]];
    uint64_t units = (uint64_t)component->scan_blocks_per_row * component->scan_block_rows;
    bit_reader reader;
    seek(&reader, stream->bytes, 0);
    uint64_t end_bit = (uint64_t)stream->size * 8;
    int32_t predictions[3] = {0, 0, 0};
    uint32_t end_of_bands = 0;
    /* The AC store's grid is the scan's (checked when it is laid out), so blocks follow units. */
    chroma_block *block = component->ac;
    int32_t *record = component->two_by_two_block == NULL
                          ? worker->records
                          : worker->records + component->two_by_two_block->record_offset;
    for (uint64_t unit = 0; unit < units; unit++, block++, record += plan->record_size) {
        if (!restart_if_due(&reader, stream, planned->restart_interval, unit, predictions, &end_of_bands)) return 0;
        if (planned->clears) block->nonzero = 0;
        int decoded = kind == AC_FIRST
                          ? decode_ac_first(&reader, table, scan, component->slot_of, &end_of_bands, block)
                          : decode_ac_refine(&reader, table, scan, component->slot_of, &end_of_bands, block);
        if (!decoded || bit_position(&reader) > end_bit) return 0;
        if (planned->folds && !fold_block(plan, component, block, record)) return 0;
    }
    return ended_cleanly(&reader, stream, planned->restart_interval, units);
}

/** Decodes one scan's unstuffed data, with its restart markers; 0 on any irregularity. */
static int decode_scan(scan_worker *worker, const planned_scan *planned, const jpeg_dc_stream *stream) {
    const scan_header *scan = &planned->header;
    const jpeg_dc_huffman *tables[3] = {NULL, NULL, NULL};
    for (int i = 0; i < scan->count && planned->kind != DC_REFINEMENT; i++) {
        const pending_table *table = &planned->tables[i];
        int slot = planned->kind == DC_FIRST ? scan->dc_table[i] : scan->ac_table[i];
        for (int j = 0; j < i; j++) {
            if ((planned->kind == DC_FIRST ? scan->dc_table[j] : scan->ac_table[j]) == slot) tables[i] = tables[j];
        }
        if (tables[i] != NULL) continue;
        if (!jpeg_dc_build_table(table->bits, table->symbols, planned->kind >= AC_FIRST, &worker->tables[i])) return 0;
        tables[i] = &worker->tables[i];
    }
    switch (planned->kind) {
    case DC_FIRST:
        return decode_dc_scan(worker->decoder, planned, DC_FIRST, tables, stream);
    case DC_REFINEMENT:
        return decode_dc_scan(worker->decoder, planned, DC_REFINEMENT, tables, stream);
    case AC_FIRST:
        return decode_ac_scan(worker, planned, AC_FIRST, tables[0], stream);
    case AC_REFINEMENT:
        return decode_ac_scan(worker, planned, AC_REFINEMENT, tables[0], stream);
    }
    return 0;
}

/** Unstuffs the scan's entropy-coded data into the worker's buffer and decodes it; 0 on any irregularity. */
static int unstuff_and_decode(scan_worker *worker, const planned_scan *planned, const uint8_t *bytes) {
    jpeg_dc_stream stream;
    memset(&stream, 0, sizeof stream);
    stream.bytes = worker->buffer;
    size_t written = 0;
    int decoded = 0;
    if (jpeg_dc_unstuff_part(bytes + planned->start, planned->end - planned->start, worker->buffer, &written,
                             &stream) == JPEG_DC_UNSTUFFED_TO_END) {
        stream.size = written;
        memset(worker->buffer + written, 0, JPEG_DC_PADDING);
        decoded = decode_scan(worker, planned, &stream);
    }
    jpeg_dc_free_stream(&stream);
    return decoded;
}

/** Appends a scan to decode; 0 when out of memory. */
static int add_planned_scan(progressive_decoder *decoder, const planned_scan *planned) {
    if (decoder->scan_count == decoder->scan_capacity) {
        size_t capacity = decoder->scan_capacity == 0 ? 16 : decoder->scan_capacity * 2;
        planned_scan *scans = realloc(decoder->scans, capacity * sizeof *scans);
        if (scans == NULL) return 0;
        decoder->scans = scans;
        decoder->scan_capacity = capacity;
    }
    decoder->scans[decoder->scan_count++] = *planned;
    return 1;
}

/** Checks a needed scan against the script and the tables defined so far, and plans it; 0 when it cannot be decoded. */
static int plan_scan(progressive_decoder *decoder, const scan_header *scan, size_t start, size_t end) {
    if (!advance_script(decoder, scan)) return 0;
    planned_scan planned;
    memset(&planned, 0, sizeof planned);
    planned.header = *scan;
    planned.kind =
        scan->ss == 0 ? (scan->ah == 0 ? DC_FIRST : DC_REFINEMENT) : (scan->ah == 0 ? AC_FIRST : AC_REFINEMENT);
    planned.start = start;
    planned.end = end;
    planned.restart_interval = decoder->restart_interval;
    for (int i = 0; i < scan->count && planned.kind != DC_REFINEMENT; i++) {
        const pending_table *table =
            &decoder->pending[planned.kind == DC_FIRST ? scan->dc_table[i] : scan->ac_table[i]];
        if (table->state == 0) return 0;
        planned.tables[i] = *table;
    }
    if (scan->ss != 0) {
        progressive_component *component = &decoder->components[scan->component[0]];
        if (component->needed == 1) return 0; /* no AC store */
        planned.clears = !component->ac_planned;
        component->ac_planned = 1;
        component->last_ac_scan = decoder->scan_count;
    }
    return add_planned_scan(decoder, &planned);
}

/**
 * Walks the markers from the start of the file and plans the scans the pixels need, until
 * every needed coefficient is final; 0 on any irregularity or when the data ends first.
 */
static int plan_scans(progressive_decoder *decoder, j_decompress_ptr info, const uint8_t *bytes, size_t size) {
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
            if (scan_is_needed(decoder, &scan) && !plan_scan(decoder, &scan, position, end)) return 0;
            position = end;
        } else if (code == 0xCC || (seen_scan && (code == 0xDB || (code >= 0xC0 && code <= 0xCF)))) {
            return 0; /* arithmetic conditioning, or tables or a frame changed between scans */
        }
    }
    for (int c = 0; c < decoder->plan->components; c++) {
        if (decoder->components[c].ac_planned) decoder->scans[decoder->components[c].last_ac_scan].folds = 1;
    }
    return 1;
}

/**
 * Puts the DCs into the MCU records of rows [first_row, end_row) (the last AC scans have
 * folded the 4:2:0 chroma blocks into them already).
 */
static void make_records(const progressive_decoder *decoder, int32_t *records, uint32_t first_row, uint32_t end_row) {
    const jpeg_dc_plan *plan = decoder->plan;
    /* Each block of an MCU: its component and where it lies from the MCU's first block of that component. */
    const progressive_component *components[JPEG_DC_MAX_BLOCKS];
    uint64_t offsets[JPEG_DC_MAX_BLOCKS];
    int index_in_component = 0;
    for (int b = 0; b < plan->block_count; b++) {
        const jpeg_dc_block *block = &plan->blocks[b];
        if (b > 0 && block->component != plan->blocks[b - 1].component) index_in_component = 0;
        components[b] = &decoder->components[block->component];
        uint32_t x = (uint32_t)index_in_component % components[b]->h;
        uint32_t y = (uint32_t)index_in_component / components[b]->h;
        offsets[b] = (uint64_t)y * components[b]->blocks_per_row + x;
        index_in_component++;
    }
    int32_t *record = records + (uint64_t)first_row * plan->mcus_per_row * (uint64_t)plan->record_size;
    for (uint32_t row = first_row; row < end_row; row++) {
        for (uint32_t column = 0; column < plan->mcus_per_row; column++, record += plan->record_size) {
            for (int b = 0; b < plan->block_count; b++) {
                const progressive_component *component = components[b];
                uint64_t index = (uint64_t)row * component->v * component->blocks_per_row +
                                 (uint64_t)column * component->h + offsets[b];
                record[plan->blocks[b].record_offset] = component->dc[index];
            }
        }
    }
}

/** Decodes the worker's share of the planned scans in file order; 0 on failure or when the other thread failed. */
static int decode_share(scan_worker *worker) {
    progressive_decoder *decoder = worker->decoder;
    for (size_t i = 0; i < decoder->scan_count; i++) {
        const planned_scan *planned = &decoder->scans[i];
        if ((planned->header.ss == 0) != worker->dc_scans) continue;
        /* A passed deadline leaves the file to libjpeg, whose scan loop reports it. */
        if (atomic_load_explicit(&decoder->failed, memory_order_relaxed) ||
            webimage_deadline_passed(decoder->deadline_ns) || !unstuff_and_decode(worker, planned, worker->bytes)) {
            return 0;
        }
    }
    return 1;
}

/** Makes the records of the worker's MCU rows and writes their pixels; 0 as jpeg_dc_write_mcu_rows. */
static int write_rows(const scan_worker *worker) {
    const jpeg_dc_plan *plan = worker->decoder->plan;
    jpeg_dc_record_source source = {
        .records = worker->records, .switch_mcu = plan->mcu_count, .later_records = worker->records};
    make_records(worker->decoder, worker->records, worker->first_row, worker->end_row);
    return jpeg_dc_write_mcu_rows(worker->writer, &source, worker->first_row, worker->end_row);
}

/** A thread's whole work: its scans, then (with two threads, once the other's scans are decoded too) its rows. */
static void *run_worker(void *argument) {
    scan_worker *worker = argument;
    progressive_decoder *decoder = worker->decoder;
    if (!decode_share(worker)) atomic_store_explicit(&decoder->failed, 1, memory_order_relaxed);
    if (worker->scans_decoded != NULL) {
        pthread_barrier_wait(worker->scans_decoded);
        if (!atomic_load_explicit(&decoder->failed, memory_order_relaxed) && !write_rows(worker)) {
            atomic_store_explicit(&decoder->failed, 1, memory_order_relaxed);
        }
    }
    return NULL;
}

/** Sets up each component's grids and what it keeps; 0 when the layout is not one this decoder covers. */
static int describe_components(progressive_decoder *decoder, j_decompress_ptr info) {
    const jpeg_dc_plan *plan = decoder->plan;
    for (int c = 0; c < plan->components; c++) {
        progressive_component *component = &decoder->components[c];
        const jpeg_component_info *frame = &info->comp_info[c];
        int is_gray = plan->layout == JPEG_DC_GRAY;
        component->h = is_gray ? 1 : (uint32_t)frame->h_samp_factor;
        component->v = is_gray ? 1 : (uint32_t)frame->v_samp_factor;
        component->blocks_per_row = plan->mcus_per_row * component->h;
        component->block_rows = plan->mcu_rows * component->v;
        uint64_t width = is_gray ? plan->width
                                 : divide_rounding_up((uint64_t)plan->width * (uint32_t)frame->h_samp_factor,
                                                      (uint32_t)info->max_h_samp_factor);
        uint64_t height = is_gray ? plan->height
                                  : divide_rounding_up((uint64_t)plan->height * (uint32_t)frame->v_samp_factor,
                                                       (uint32_t)info->max_v_samp_factor);
        component->scan_blocks_per_row = divide_rounding_up(width, 8);
        component->scan_block_rows = divide_rounding_up(height, 8);
        int two_by_two = plan->layout == JPEG_DC_YCC_420 && c > 0;
        component->needed = 1;
        int slots = 0;
        for (int k = 0; k < 64; k++) {
            int read = k == 0 || (two_by_two && plan->terms[k].column_slot >= 0);
            component->slot_of[k] = (int8_t)(read && k > 0 ? slots++ : -1);
            if (read) component->needed |= (uint64_t)1 << k;
        }
        if (slots > TWO_BY_TWO_SLOTS) return 0;
        if (two_by_two && (component->scan_blocks_per_row != component->blocks_per_row ||
                           component->scan_block_rows != component->block_rows)) {
            return 0;
        }
        memset(component->known_to_bit, -1, sizeof component->known_to_bit);
        for (int b = 0; b < plan->block_count && two_by_two; b++) {
            if (plan->blocks[b].component == c) component->two_by_two_block = &plan->blocks[b];
        }
        if (two_by_two &&
            (component->two_by_two_block == NULL || component->two_by_two_block->kind != JPEG_DC_BLOCK_TWO_BY_TWO)) {
            return 0;
        }
    }
    return 1;
}

static size_t rounded_to_cache_line(uint64_t size) { return (size_t)((size + 63) & ~(uint64_t)63); }

/**
 * Places the DC stores (first, together) and the chroma blocks in `memory`, or only
 * measures them when it is NULL; returns the bytes used and the DC stores' share in `dc_bytes`.
 */
static size_t place_components(progressive_decoder *decoder, uint8_t *_Nullable memory, size_t *dc_bytes) {
    const jpeg_dc_plan *plan = decoder->plan;
    size_t used = 0;
    for (int c = 0; c < plan->components; c++) {
        progressive_component *component = &decoder->components[c];
        if (memory != NULL) component->dc = (int16_t *)(void *)(memory + used);
        used += rounded_to_cache_line((uint64_t)component->blocks_per_row * component->block_rows * sizeof(int16_t));
    }
    *dc_bytes = used;
    for (int c = 0; c < plan->components; c++) {
        progressive_component *component = &decoder->components[c];
        if (component->needed == 1) continue; /* the DC alone */
        if (memory != NULL) component->ac = (chroma_block *)(void *)(memory + used);
        used += (size_t)component->blocks_per_row * component->block_rows * sizeof(chroma_block);
    }
    return used;
}

/** The entropy-coded bytes of the DC scans (`dc_scans` set) or the AC scans planned, and the largest scan's. */
static size_t planned_bytes(const progressive_decoder *decoder, int dc_scans, size_t *largest) {
    size_t total = 0;
    *largest = 0;
    for (size_t i = 0; i < decoder->scan_count; i++) {
        const planned_scan *planned = &decoder->scans[i];
        if ((planned->header.ss == 0) != dc_scans) continue;
        size_t bytes = planned->end - planned->start;
        total += bytes;
        if (bytes > *largest) *largest = bytes;
    }
    return total;
}

/**
 * Decodes the planned scans and writes the pixels: when both the DC and the AC scans are
 * large enough, the AC scans on a second thread, and then each thread half of the rows.
 * The route (JPEG_SHIM_DC_PROGRESSIVE or ..._TWO_THREADS), or 0 on failure.
 */
static int decode_and_write(progressive_decoder *decoder, scan_worker *workers) {
    const jpeg_dc_plan *plan = decoder->plan;
    size_t largest;
    int two_threads = planned_bytes(decoder, 1, &largest) >= TWO_THREAD_BYTES &&
                      planned_bytes(decoder, 0, &largest) >= TWO_THREAD_BYTES && plan->mcu_rows >= 2;
    pthread_barrier_t scans_decoded;
    if (two_threads && pthread_barrier_init(&scans_decoded, NULL, 2) == 0) {
        workers[0].end_row = plan->mcu_rows / 2;
        workers[1].first_row = plan->mcu_rows / 2;
        workers[1].end_row = plan->mcu_rows;
        workers[0].scans_decoded = workers[1].scans_decoded = &scans_decoded;
        pthread_t thread;
        int started = pthread_create(&thread, NULL, run_worker, &workers[1]) == 0;
        if (started) {
            run_worker(&workers[0]);
            pthread_join(thread, NULL);
        }
        pthread_barrier_destroy(&scans_decoded);
        if (started) return atomic_load(&decoder->failed) ? 0 : JPEG_SHIM_DC_PROGRESSIVE_TWO_THREADS;
        workers[0].scans_decoded = workers[1].scans_decoded = NULL;
    }
    workers[0].first_row = 0;
    workers[0].end_row = plan->mcu_rows;
    return decode_share(&workers[0]) && decode_share(&workers[1]) && write_rows(&workers[0]) ? JPEG_SHIM_DC_PROGRESSIVE
                                                                                             : 0;
}

/** Decodes the planned scans and writes the pixels with scratch memory taken for them; the route or 0. */
static int decode_with_memory(progressive_decoder *decoder, const uint8_t *bytes, scan_worker *workers, uint8_t *pixels,
                              size_t stride) {
    const jpeg_dc_plan *plan = decoder->plan;
    size_t dc_largest, ac_largest;
    planned_bytes(decoder, 1, &dc_largest);
    planned_bytes(decoder, 0, &ac_largest);
    size_t dc_buffer = rounded_to_cache_line((uint64_t)dc_largest + JPEG_DC_PADDING);
    size_t ac_buffer = ac_largest == 0 ? 0 : rounded_to_cache_line((uint64_t)ac_largest + JPEG_DC_PADDING);
    size_t records_size = rounded_to_cache_line(plan->mcu_count * (uint64_t)plan->record_size * sizeof(int32_t));
    size_t dc_store_size;
    size_t store_size = place_components(decoder, NULL, &dc_store_size);
    uint8_t *scratch = jpeg_dc_take_scratch(dc_buffer + ac_buffer + records_size + store_size);
    jpeg_dc_pixel_writer *writer = malloc(sizeof *writer);
    int route = 0;
    if (scratch != NULL && writer != NULL) {
        uint8_t *store = scratch + dc_buffer + ac_buffer + records_size;
        place_components(decoder, store, &dc_store_size);
        memset(store, 0, dc_store_size);
        jpeg_dc_start_pixels(writer, plan, pixels, stride);
        for (int w = 0; w < 2; w++) {
            workers[w].decoder = decoder;
            workers[w].dc_scans = w == 0;
            workers[w].bytes = bytes;
            workers[w].buffer = w == 0 ? scratch : scratch + dc_buffer;
            workers[w].records = (int32_t *)(void *)(scratch + dc_buffer + ac_buffer);
            workers[w].writer = writer;
        }
        route = decode_and_write(decoder, workers);
    }
    free(writer);
    jpeg_dc_return_scratch(scratch);
    return route;
}

int jpeg_dc_decode_progressive(j_decompress_ptr info, const jpeg_dc_plan *plan, const uint8_t *bytes, size_t size,
                               uint8_t *pixels, size_t stride, uint64_t deadline_ns) {
    progressive_decoder *decoder = calloc(1, sizeof *decoder);
    scan_worker *workers = calloc(2, sizeof *workers);
    int route = 0;
    if (decoder != NULL && workers != NULL) {
        decoder->plan = plan;
        decoder->deadline_ns = deadline_ns;
        size_t dc_store_size;
        if (describe_components(decoder, info) &&
            plan->mcu_count * (uint64_t)plan->record_size * sizeof(int32_t) +
                    place_components(decoder, NULL, &dc_store_size) <=
                JPEG_DC_MAX_RECORD_BYTES &&
            plan_scans(decoder, info, bytes, size)) {
            route = decode_with_memory(decoder, bytes, workers, pixels, stride);
        }
        free(decoder->scans);
    }
    free(workers);
    free(decoder);
    return route;
}
