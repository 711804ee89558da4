/*
 * The 1/8-scale fast path: a baseline JPEG decoded from its DC coefficients.
 *
 * At 1/8 scale every 8×8 block becomes one pixel (two by two for the chroma of 4:2:0
 * files), so almost nothing but the entropy decoding is left, and libjpeg-turbo spends it
 * storing every AC coefficient. This path decodes the Huffman symbols itself, skips the AC
 * coefficients it does not need, keeps one record of a few integers per MCU, and splits the
 * entropy-coded data between two threads (at restart markers, or speculatively where there
 * are none). The pixels equal libjpeg-turbo's own 1/8-scale output; whatever the path does
 * not cover, or any irregularity in the data, leaves the decode to libjpeg. Progressive
 * files take their own entropy decoder (jpeg_dc_progressive.c) into the same records.
 */
#ifndef WEBIMAGE_JPEG_DC_INTERNAL_H
#define WEBIMAGE_JPEG_DC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../jpeg_shim_internal.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

#if defined(__clang__)
#pragma clang assume_nonnull begin
#endif

/** Bits looked at by one table lookup; longer codes take the canonical path. */
#define JPEG_DC_LOOKAHEAD 9
/** Bits looked at by one lookup that skips several AC coefficients at once. */
#define JPEG_DC_RUN_LOOKAHEAD 12
/** In a run entry: set when the run ends with the end-of-block symbol. */
#define JPEG_DC_RUN_ENDS_BLOCK 0x1000
/** Bits looked at by one lookup that decodes a code and its magnitude bits together. */
#define JPEG_DC_VALUE_LOOKAHEAD 11
/** In a value entry (bits 5-6): a coefficient, the end of the block, or a run of sixteen zeros. */
#define JPEG_DC_VALUE_COEFFICIENT 0
#define JPEG_DC_VALUE_END_OF_BLOCK 1
#define JPEG_DC_VALUE_SIXTEEN_ZEROS 2
/** Zero bytes after the entropy-coded data, so that the bit reader never reads past its buffer. */
#define JPEG_DC_PADDING 4096
/** Larger files (about 350 megapixels at 4:2:0) are left to libjpeg, which needs far less memory at 1/8 scale. */
#define JPEG_DC_MAX_RECORD_BYTES ((uint64_t)64 << 20)
/**
 * DC predictions beyond this magnitude are left to libjpeg: a sum of one prediction and
 * one correction between threads then always fits an int, as libjpeg's own checks require.
 */
#define JPEG_DC_PREDICTION_LIMIT (1 << 28)
/**
 * The largest dequantised coefficient the 2×2 reduced IDCT may read (2^11 - 1; valid 8-bit
 * data stays near ±1024). libjpeg-turbo runs that IDCT in SIMD, which agrees with its C
 * arithmetic (the one reproduced here) for such values but not for much larger ones; blocks
 * beyond the limit, which only damaged or hand-made files have, are left to libjpeg.
 */
#define JPEG_DC_TWO_BY_TWO_LIMIT 2047
/** The most blocks an MCU of a supported layout has (4:2:0: four luma, two chroma). */
#define JPEG_DC_MAX_BLOCKS 6

/** One Huffman table, arranged for decoding and for skipping. */
typedef struct jpeg_dc_huffman {
    /** By the next JPEG_DC_LOOKAHEAD bits: code length (bits 0-4; 0 = a longer code) and symbol (bits 8-15). */
    uint16_t symbol_by_prefix[1 << JPEG_DC_LOOKAHEAD];
    /**
     * AC tables, by the next JPEG_DC_LOOKAHEAD bits: the bits of the whole coefficient, code
     * and magnitude (bits 0-4; 0 = a longer code), and how far it moves the coefficient index
     * (bits 8-12; 0 = end of block).
     */
    uint16_t skip_by_prefix[1 << JPEG_DC_LOOKAHEAD];
    /**
     * AC tables, by the next JPEG_DC_RUN_LOOKAHEAD bits: every whole coefficient whose code
     * lies in those bits, skipped at once. Bits 0-4: the bits of all of them, magnitudes
     * included (0 = the first code is longer); bits 5-11: how far they move the coefficient
     * index; JPEG_DC_RUN_ENDS_BLOCK when the last is the end of the block.
     */
    uint16_t skip_run_by_prefix[1 << JPEG_DC_RUN_LOOKAHEAD];
    /**
     * By the next JPEG_DC_VALUE_LOOKAHEAD bits, when a code and its magnitude bits both lie
     * in them: bits 0-4 their length (0 = not covered), bits 5-6 the kind
     * (JPEG_DC_VALUE_...), bits 8-11 the run of zeros before an AC coefficient, bits 16-31
     * the signed value (the DC difference for DC tables).
     */
    int32_t value_by_prefix[1 << JPEG_DC_VALUE_LOOKAHEAD];
    /** The largest code of each length 1...16 (-1 when there is none). */
    int32_t largest_code[17];
    /** For each length, what to add to a code of that length to index `symbols`. */
    int32_t symbol_offset[17];
    uint8_t symbols[256];
} jpeg_dc_huffman;

/** How the record of one block is made. */
typedef enum jpeg_dc_block_kind {
    /** Only the DC coefficient is kept (one integer); the AC coefficients are skipped. */
    JPEG_DC_BLOCK_DC_ONLY = 0,
    /** libjpeg's 2×2 reduced IDCT needs 25 coefficients: kept as four integers (see jpeg_dc_pixels.c). */
    JPEG_DC_BLOCK_TWO_BY_TWO = 1,
} jpeg_dc_block_kind;

typedef struct jpeg_dc_block {
    jpeg_dc_block_kind kind;
    /** The component's position in the scan, for its DC prediction. */
    uint8_t component;
    /** Where the block's integers start in the MCU record. */
    uint8_t record_offset;
    const jpeg_dc_huffman *dc_table;
    const jpeg_dc_huffman *ac_table;
    /** The component's quantisation table in natural order. */
    const uint16_t *quantization;
} jpeg_dc_block;

/** The layouts the fast path covers; each decides how records become pixels. */
typedef enum jpeg_dc_layout {
    JPEG_DC_GRAY = 0,
    JPEG_DC_YCC_444 = 1,
    JPEG_DC_YCC_422 = 2,
    JPEG_DC_YCC_420 = 3,
} jpeg_dc_layout;

/**
 * What one AC coefficient, by its zigzag index, adds to a 2×2 block record: the reduced
 * IDCT reads only rows and columns 0, 1, 3, 5 and 7 (see jpeg_dc_pixels.c).
 */
typedef struct jpeg_dc_term {
    /** The column's slot (0...4 for columns 0, 1, 3, 5, 7), or -1 when the coefficient is not read. */
    int8_t column_slot;
    /** Non-zero for row 0 (the column's even part); otherwise the row's odd-part weight applies. */
    int8_t is_even;
    int32_t odd_weight;
    /** The coefficient's natural (row-major) index, for its quantiser. */
    uint8_t natural_index;
} jpeg_dc_term;

/** Everything the fast path needs from the header, checked and arranged. */
typedef struct jpeg_dc_plan {
    jpeg_dc_layout layout;
    uint32_t width;
    uint32_t height;
    uint32_t output_width;
    uint32_t output_height;
    uint32_t mcus_per_row;
    uint32_t mcu_rows;
    uint64_t mcu_count;
    /** MCUs between restart markers (0 = none). */
    uint32_t restart_interval;
    int components;
    int block_count;
    jpeg_dc_block blocks[JPEG_DC_MAX_BLOCKS];
    /** Integers per MCU record. */
    int record_size;
    /** The DC quantiser of each component (scan order = Y, Cb, Cr). */
    int32_t dc_quantizer[3];
    /** Where the last block of each component keeps its DC in the MCU record. */
    int last_dc_offset[3];
    /** By zigzag index 0...79 (libjpeg treats indices past 63 as 63). */
    jpeg_dc_term terms[80];
    jpeg_dc_huffman tables[8];
} jpeg_dc_plan;

/** Where an entropy decoder stands: before an MCU, with the DC predictions so far. */
typedef struct jpeg_dc_cursor {
    /** The MCU about to be decoded (counted from where the decoder started). */
    uint64_t mcu;
    /** Its first bit in the unstuffed stream. */
    uint64_t bit;
    int32_t predictions[3];
    /** Set when the data could not be decoded (a bad code, a misplaced marker, the end of the data). */
    int failed;
} jpeg_dc_cursor;

/** The entropy-coded data with its byte stuffing removed. */
typedef struct jpeg_dc_stream {
    /** `size` bytes, then JPEG_DC_PADDING zero bytes (in the caller's scratch memory). */
    uint8_t *bytes;
    size_t size;
    /** Offsets in `bytes` where restart markers stood, in order, and the count. */
    size_t *restart_offsets;
    size_t restart_count;
} jpeg_dc_stream;

/** Fills `plan` from libjpeg's state after jpeg_read_header; 0 when the fast path does not cover the file. */
int jpeg_dc_make_plan(j_decompress_ptr info, jpeg_dc_plan *plan);

/** Builds a table from the JPEG DHT counts (`bits[1...16]`) and symbols; 0 when they are not a valid code. */
int jpeg_dc_build_table(const uint8_t *bits, const uint8_t *symbols, int is_ac, jpeg_dc_huffman *table);

typedef enum jpeg_dc_unstuff_result {
    JPEG_DC_UNSTUFF_FAILED = 0,
    /** The bytes ended with no marker among them. */
    JPEG_DC_UNSTUFFED_TO_END = 1,
    /** An EOI marker ended the data. */
    JPEG_DC_UNSTUFFED_TO_EOI = 2,
} jpeg_dc_unstuff_result;

/**
 * Copies entropy-coded bytes into `buffer` without their stuffed zero bytes, stopping at
 * the end of `bytes` or at a marker; `*written` is the length copied. Restart markers are
 * noted in `restarts` (in order, or the copy fails), or fail when `restarts` is NULL; any
 * other marker but EOI fails.
 */
jpeg_dc_unstuff_result jpeg_dc_unstuff_part(const uint8_t *bytes, size_t size, uint8_t *buffer, size_t *written,
                                            jpeg_dc_stream *_Nullable restarts);

/**
 * Copies the entropy-coded data that starts at `bytes` into `buffer` (`size` +
 * JPEG_DC_PADDING bytes) without its stuffed zero bytes and notes its restart markers.
 * 0 when the data does not end in an EOI marker.
 */
int jpeg_dc_unstuff(const uint8_t *bytes, size_t size, uint8_t *buffer, jpeg_dc_stream *stream);

void jpeg_dc_free_stream(jpeg_dc_stream *stream);

/**
 * Decodes up to `count` MCUs from `cursor` into `records` (and each MCU's first bit into
 * `start_bits` when given), stopping before an MCU that would start at or after
 * `stop_bit`. Restart markers are expected where plan->restart_interval puts them, counted
 * from cursor->mcu. Returns how many MCUs were decoded; cursor->failed tells why it stopped early.
 */
uint64_t jpeg_dc_decode_run(const jpeg_dc_plan *plan, const jpeg_dc_stream *stream, jpeg_dc_cursor *cursor,
                            uint64_t count, uint64_t stop_bit, int32_t *records, uint64_t *_Nullable start_bits);

/**
 * Folds a 2×2 chroma block's dequantised coefficients, summed by column slot (`even`: row 0;
 * `odd`: the other rows, times their odd weights), into record[1...3] (see jpeg_dc_pixels.c).
 * 0 when an intermediate does not fit an int (the caller then leaves the file to libjpeg).
 */
int jpeg_dc_fold_two_by_two(const int64_t *even, const int64_t *odd, int32_t *record);

typedef struct jpeg_dc_pixel_writer jpeg_dc_pixel_writer;

/** Memory for the second thread's speculative decoding: room for plan->mcu_count MCUs. */
typedef struct jpeg_dc_speculation_memory {
    int32_t *records;
    uint64_t *start_bits;
} jpeg_dc_speculation_memory;

/**
 * Unstuffs the scan's entropy-coded data (`scan`, up to the EOI marker) into `buffer`
 * (`scan_size` + JPEG_DC_PADDING bytes), decodes every MCU into `records`
 * (plan->record_size integers each), on two threads when the data is large enough, and
 * writes the pixels with `writer` (the first thread writes its rows as it goes).
 * Returns how (a jpeg_shim_dc_route), or 0 on any irregularity (the caller then leaves the
 * file to libjpeg).
 */
int jpeg_dc_decode_scan(const jpeg_dc_plan *plan, const uint8_t *scan, size_t scan_size, uint8_t *buffer,
                        int32_t *records, jpeg_dc_speculation_memory speculation, jpeg_dc_pixel_writer *writer);

/** At least `size` bytes of 64-byte aligned scratch memory, reused from an earlier decode when possible; NULL if out of memory. */
void *_Nullable jpeg_dc_take_scratch(size_t size);

/** Gives scratch memory back (it may be kept for the next decode). */
void jpeg_dc_return_scratch(void *_Nullable memory);

/** Lookup tables of the pixel stage: the IDCT output range limit and the JFIF YCbCr to RGB terms. */
typedef struct jpeg_dc_pixel_tables {
    /** libjpeg's IDCT range limit: by a value's low 10 bits, the value plus 128, clamped, wrapping as libjpeg does. */
    uint8_t idct_limit[1024];
    /** 0...255 clamping of -384...639, indexed from -384. */
    uint8_t clamp[1024];
    int32_t red_from_cr[256];
    int32_t blue_from_cb[256];
    int32_t green_from_cr[256];
    int32_t green_from_cb[256];
} jpeg_dc_pixel_tables;

/** Writes RGBA8 pixels of the 1/8-scale image, as libjpeg-turbo's 1/8 scale would, MCU row by MCU row. */
struct jpeg_dc_pixel_writer {
    const jpeg_dc_plan *plan;
    uint8_t *pixels;
    size_t stride;
    jpeg_dc_pixel_tables tables;
};

/**
 * Where the records of the MCUs are: MCUs before `switch_mcu` in `records` (by index),
 * later ones in `later_records` from its record `later_first` on, with `corrections` added
 * to their DC predictions (the second thread's records, used where they lie).
 */
typedef struct jpeg_dc_record_source {
    const int32_t *records;
    uint64_t switch_mcu;
    const int32_t *later_records;
    uint64_t later_first;
    int32_t corrections[3];
} jpeg_dc_record_source;

void jpeg_dc_start_pixels(jpeg_dc_pixel_writer *writer, const jpeg_dc_plan *plan, uint8_t *pixels, size_t stride);

/**
 * Writes the output rows of MCU rows [`first_row`, `end_row`). Returns 0 when a 2×2
 * block's DC is beyond JPEG_DC_TWO_BY_TWO_LIMIT (the caller then leaves the file to libjpeg).
 */
int jpeg_dc_write_mcu_rows(const jpeg_dc_pixel_writer *writer, const jpeg_dc_record_source *source, uint32_t first_row,
                           uint32_t end_row);

/**
 * The whole fast path for a reader positioned after jpeg_read_header on `bytes`: the
 * jpeg_shim_dc_route it took to write the 1/8-scale image, or 0 when libjpeg must decode
 * instead (nothing was consumed). A progressive file's decode checks `deadline_ns`
 * (CLOCK_MONOTONIC, 0 = none) before each scan it decodes and, once it has passed, leaves
 * the file to libjpeg, whose scan loop then reports the timeout.
 */
int jpeg_dc_decode_eighth(j_decompress_ptr info, const uint8_t *bytes, size_t size, uint8_t *pixels, size_t stride,
                          uint64_t deadline_ns);

/**
 * The fast path for a progressive file (jpeg_dc_progressive.c), planned by jpeg_dc_make_plan:
 * JPEG_SHIM_DC_PROGRESSIVE (one thread) or JPEG_SHIM_DC_PROGRESSIVE_TWO_THREADS when it wrote
 * the 1/8-scale image, or 0 when libjpeg must decode instead (nothing was consumed).
 */
int jpeg_dc_decode_progressive(j_decompress_ptr info, const jpeg_dc_plan *plan, const uint8_t *bytes, size_t size,
                               uint8_t *pixels, size_t stride, uint64_t deadline_ns);

#if defined(__clang__)
#pragma clang assume_nonnull end
#endif

#pragma GCC visibility pop

#endif
