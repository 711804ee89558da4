/*
 * Splitting the entropy decoding of the 1/8-scale fast path between two threads, and
 * writing the pixels.
 *
 * With restart markers the split is exact: the second thread starts at the marker nearest
 * the middle, with fresh DC predictions. Without them (most photographs) the second
 * thread starts speculatively at 53% of the data, pretending an MCU begins there, and
 * notes where each of its MCUs begins. Huffman codes resynchronise quickly, so once the
 * first thread reaches an MCU that starts at a bit where the second thread also started
 * one, everything the second thread decoded from there on is the true decoding, except
 * that its DC predictions are off by a constant per component, which is added as its
 * records become pixels. If no such bit turns up, the first thread simply decodes
 * everything: the result never depends on the speculation succeeding. Meanwhile the first
 * thread writes the pixels of the MCU rows it completes (its smaller share pays for that).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg_dc_internal.h"

/** Entropy-coded data below this size is decoded on the calling thread only (bytes). */
#define PARALLEL_MINIMUM_BYTES (256 * 1024)
/** The first thread's share of the entropy-coded data, in percent: it also writes its pixels as it goes. */
#define FIRST_THREAD_SHARE_PERCENT 47
/** Pixels written after the decode are split between two threads from this many on (output pixels). */
#define PARALLEL_MINIMUM_PIXELS 32768
/** MCUs the speculative thread decodes between two publications of its progress. */
#define PUBLISH_BATCH 64
/** Polls of a shared flag before a waiting thread gives its core away (each a few nanoseconds). */
#define SPINS_BEFORE_YIELDING 20000

/**
 * Lets the other thread make progress while this one waits for it: a pause while the wait
 * is likely short, then the core to the scheduler (on a busy machine yielding at once can
 * cost a whole time slice).
 */
static void wait_a_moment(uint32_t *spins) {
    if (*spins < SPINS_BEFORE_YIELDING) {
        (*spins)++;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        return;
    }
    sched_yield();
}

typedef struct speculative_run {
    const jpeg_dc_plan *plan;
    /** The second half of the raw scan data, unstuffed by the speculative thread to `buffer` + `split`. */
    const uint8_t *raw;
    size_t raw_size;
    size_t split;
    uint8_t *buffer;
    /** The whole unstuffed data, valid once `unstuffed` is 1 (-1: the second half could not be unstuffed). */
    jpeg_dc_stream stream;
    _Atomic int unstuffed;
    jpeg_dc_cursor cursor;
    uint64_t capacity;
    int32_t *records;
    uint64_t *start_bits;
    /** MCUs whose records and start bits are written. */
    _Atomic uint64_t published;
    _Atomic int finished;
    _Atomic int cancelled;
} speculative_run;

static void *run_speculatively(void *argument) {
    speculative_run *run = argument;
    size_t written = 0;
    if (jpeg_dc_unstuff_part(run->raw + run->split, run->raw_size - run->split, run->buffer + run->split, &written,
                             NULL) != JPEG_DC_UNSTUFFED_TO_EOI) {
        atomic_store_explicit(&run->unstuffed, -1, memory_order_release);
        atomic_store_explicit(&run->finished, 1, memory_order_release);
        return NULL;
    }
    run->stream.bytes = run->buffer;
    run->stream.size = run->split + written;
    memset(run->buffer + run->stream.size, 0, JPEG_DC_PADDING);
    atomic_store_explicit(&run->unstuffed, 1, memory_order_release);
    uint64_t done = 0;
    while (done < run->capacity && !atomic_load_explicit(&run->cancelled, memory_order_relaxed)) {
        uint64_t batch = run->capacity - done < PUBLISH_BATCH ? run->capacity - done : PUBLISH_BATCH;
        uint64_t decoded =
            jpeg_dc_decode_run(run->plan, &run->stream, &run->cursor, batch, UINT64_MAX,
                               run->records + done * (uint64_t)run->plan->record_size, run->start_bits + done);
        done += decoded;
        atomic_store_explicit(&run->published, done, memory_order_release);
        if (decoded < batch) break;
    }
    atomic_store_explicit(&run->finished, 1, memory_order_release);
    return NULL;
}

/** Whether the decoding ended exactly at the end of the data with every restart marker used. */
static int ends_cleanly(const jpeg_dc_plan *plan, const jpeg_dc_stream *stream, const jpeg_dc_cursor *cursor) {
    uint64_t expected_restarts = plan->restart_interval == 0 ? 0 : (plan->mcu_count - 1) / plan->restart_interval;
    return !cursor->failed && cursor->mcu == plan->mcu_count && (cursor->bit + 7) / 8 == stream->size &&
           stream->restart_count == expected_restarts;
}

static int decode_sequentially(const jpeg_dc_plan *plan, const jpeg_dc_stream *stream, jpeg_dc_cursor *cursor,
                               int32_t *records) {
    uint64_t remaining = plan->mcu_count - cursor->mcu;
    jpeg_dc_decode_run(plan, stream, cursor, remaining, UINT64_MAX, records + cursor->mcu * (uint64_t)plan->record_size,
                       NULL);
    return ends_cleanly(plan, stream, cursor);
}

typedef struct restart_half {
    const jpeg_dc_plan *plan;
    const jpeg_dc_stream *stream;
    jpeg_dc_cursor cursor;
    int32_t *records;
} restart_half;

static void *decode_restart_half(void *argument) {
    restart_half *half = argument;
    decode_sequentially(half->plan, half->stream, &half->cursor, half->records);
    return NULL;
}

/** Two threads, split at the restart marker nearest the middle of the data. */
static int decode_split_at_restart(const jpeg_dc_plan *plan, const jpeg_dc_stream *stream, int32_t *records) {
    size_t marker = 0;
    for (size_t i = 1; i < stream->restart_count; i++) {
        if (stream->restart_offsets[i] <= stream->size / 2) marker = i;
    }
    uint64_t split_mcu = (uint64_t)(marker + 1) * plan->restart_interval;
    if (split_mcu >= plan->mcu_count) return -1;
    restart_half second = {plan, stream, {split_mcu, stream->restart_offsets[marker] * 8, {0, 0, 0}, 0}, records};
    pthread_t thread;
    if (pthread_create(&thread, NULL, decode_restart_half, &second) != 0) return -1;
    jpeg_dc_cursor first = {0, 0, {0, 0, 0}, 0};
    jpeg_dc_decode_run(plan, stream, &first, split_mcu, UINT64_MAX, records, NULL);
    pthread_join(thread, NULL);
    int clean = !first.failed && first.mcu == split_mcu && (first.bit + 7) / 8 == stream->restart_offsets[marker] &&
                ends_cleanly(plan, stream, &second.cursor);
    return clean ? JPEG_SHIM_DC_SPLIT_AT_RESTART : 0;
}

/** Waits until the speculative run has an MCU starting at or after `bit`; its index, or `published` if none. */
static uint64_t find_start_at_or_after(speculative_run *run, uint64_t bit, uint64_t from) {
    uint32_t spins = 0;
    for (;;) {
        int finished = atomic_load_explicit(&run->finished, memory_order_acquire);
        uint64_t published = atomic_load_explicit(&run->published, memory_order_acquire);
        while (from < published && run->start_bits[from] < bit) from++;
        if (from < published || finished) return from;
        wait_a_moment(&spins);
    }
}

/**
 * Takes over the speculative thread's records from its MCU `match` onwards as the true
 * MCUs from cursor->mcu on, with DC predictions corrected, and moves the cursor past them.
 */
static int adopt_speculative_records(const jpeg_dc_plan *plan, const speculative_run *run, uint64_t match,
                                     uint64_t published, jpeg_dc_cursor *cursor, int32_t *records) {
    int size = plan->record_size;
    int64_t correction[3];
    for (int c = 0; c < plan->components; c++) {
        int32_t speculative = match == 0 ? 0 : run->records[(match - 1) * size + plan->last_dc_offset[c]];
        correction[c] = (int64_t)cursor->predictions[c] - speculative;
    }
    uint64_t usable = published - match;
    if (usable > plan->mcu_count - cursor->mcu) usable = plan->mcu_count - cursor->mcu;
    int32_t *target = records + cursor->mcu * (uint64_t)size;
    const int32_t *source = run->records + match * (uint64_t)size;
    memcpy(target, source, usable * (uint64_t)size * sizeof *records);
    for (uint64_t i = 0; i < usable; i++) {
        for (int b = 0; b < plan->block_count; b++) {
            int32_t *dc = &target[i * size + plan->blocks[b].record_offset];
            int64_t corrected = *dc + correction[plan->blocks[b].component];
            if (corrected > JPEG_DC_PREDICTION_LIMIT || corrected < -JPEG_DC_PREDICTION_LIMIT) return 0;
            *dc = (int32_t)corrected;
        }
    }
    cursor->mcu += usable;
    if (match + usable < published) {
        cursor->bit = run->start_bits[match + usable];
    } else {
        cursor->bit = run->cursor.bit;
        for (int c = 0; c < plan->components; c++) {
            int64_t corrected = run->cursor.predictions[c] + correction[c];
            if (corrected > JPEG_DC_PREDICTION_LIMIT || corrected < -JPEG_DC_PREDICTION_LIMIT) return 0;
            cursor->predictions[c] = (int32_t)corrected;
        }
    }
    return 1;
}

/** Waits until the speculative thread has unstuffed its half; 1 when it could. */
static int wait_for_second_half(speculative_run *run) {
    uint32_t spins = 0;
    for (;;) {
        int state = atomic_load_explicit(&run->unstuffed, memory_order_acquire);
        if (state != 0) return state == 1;
        wait_a_moment(&spins);
    }
}

/** MCU rows of pixels a thread writes. */
typedef struct pixel_rows_job {
    const jpeg_dc_pixel_writer *writer;
    const jpeg_dc_record_source *source;
    uint32_t first_row;
    uint32_t end_row;
    /** jpeg_dc_write_mcu_rows's answer. */
    int written;
} pixel_rows_job;

static void *write_pixel_rows(void *argument) {
    pixel_rows_job *job = argument;
    job->written = jpeg_dc_write_mcu_rows(job->writer, job->source, job->first_row, job->end_row);
    return NULL;
}

/**
 * Writes MCU rows [`first_row`, `end_row`), the lower half on a second thread when there
 * are enough of them; 0 as jpeg_dc_write_mcu_rows.
 */
static int write_rows_on_two_threads(const jpeg_dc_pixel_writer *writer, const jpeg_dc_record_source *source,
                                     uint32_t first_row, uint32_t end_row) {
    uint64_t pixels = (uint64_t)(end_row - first_row) * writer->plan->mcus_per_row * 4;
    if (pixels >= PARALLEL_MINIMUM_PIXELS && end_row - first_row >= 2) {
        uint32_t middle = first_row + (end_row - first_row) / 2;
        pixel_rows_job lower = {writer, source, middle, end_row, 0};
        pthread_t thread;
        if (pthread_create(&thread, NULL, write_pixel_rows, &lower) == 0) {
            int upper_written = jpeg_dc_write_mcu_rows(writer, source, first_row, middle);
            pthread_join(thread, NULL);
            return upper_written && lower.written;
        }
    }
    return jpeg_dc_write_mcu_rows(writer, source, first_row, end_row);
}

/** Writes the MCU rows that `records` completes below `end_mcu`, from `*rows_written` on; 0 as jpeg_dc_write_mcu_rows. */
static int write_completed_rows(const jpeg_dc_plan *plan, jpeg_dc_pixel_writer *writer, const int32_t *records,
                                uint64_t end_mcu, uint32_t *rows_written) {
    uint32_t complete_rows = (uint32_t)(end_mcu / plan->mcus_per_row);
    if (complete_rows <= *rows_written) return 1;
    jpeg_dc_record_source own = {records, UINT64_MAX, records, 0, {0, 0, 0}};
    int written = write_rows_on_two_threads(writer, &own, *rows_written, complete_rows);
    *rows_written = complete_rows;
    return written;
}

/**
 * Decodes from `cursor` up to the MCU that would start at `stop_bit`, an MCU row at a
 * time, writing each completed row's pixels while the other thread is still decoding.
 * Pixels it cannot write exactly count as a failure of the cursor.
 */
static void decode_rows_writing_pixels(const jpeg_dc_plan *plan, const jpeg_dc_stream *stream, jpeg_dc_cursor *cursor,
                                       uint64_t stop_bit, int32_t *records, jpeg_dc_pixel_writer *writer,
                                       uint32_t *rows_written) {
    while (cursor->mcu < plan->mcu_count) {
        uint64_t row_end = (cursor->mcu / plan->mcus_per_row + 1) * plan->mcus_per_row;
        if (row_end > plan->mcu_count) row_end = plan->mcu_count;
        uint64_t wanted = row_end - cursor->mcu;
        uint64_t decoded = jpeg_dc_decode_run(plan, stream, cursor, wanted, stop_bit,
                                              records + cursor->mcu * (uint64_t)plan->record_size, NULL);
        if (cursor->failed) return;
        if (!write_completed_rows(plan, writer, records, cursor->mcu, rows_written)) {
            cursor->failed = 1;
            return;
        }
        if (decoded < wanted) return;
    }
}

/**
 * After the threads met at MCU `cursor->mcu` (the speculative thread's MCU `match`): when
 * the speculative records reach the last MCU, they are used where they lie, with the DC
 * corrections, and the rest of the pixels are written from them; 1 when the data ended
 * cleanly. -1 when the speculative thread stopped early (the caller then copies).
 */
static int finish_from_speculative_records(const jpeg_dc_plan *plan, const speculative_run *run, uint64_t match,
                                           uint64_t published, const jpeg_dc_cursor *cursor,
                                           jpeg_dc_pixel_writer *writer, int32_t *records, uint32_t rows_written) {
    uint64_t needed = plan->mcu_count - cursor->mcu;
    if (published - match < needed) return -1;
    jpeg_dc_record_source source = {records, cursor->mcu, run->records, match, {0, 0, 0}};
    for (int c = 0; c < plan->components; c++) {
        int32_t speculative = match == 0 ? 0 : run->records[(match - 1) * plan->record_size + plan->last_dc_offset[c]];
        source.corrections[c] = cursor->predictions[c] - speculative;
    }
    jpeg_dc_cursor end = {plan->mcu_count, 0, {0, 0, 0}, 0};
    end.bit = match + needed < published ? run->start_bits[match + needed] : run->cursor.bit;
    if (!ends_cleanly(plan, &run->stream, &end)) return 0;
    return write_rows_on_two_threads(writer, &source, rows_written, plan->mcu_rows);
}

/**
 * Two threads, the second starting speculatively near the middle (files without restart
 * markers). Each thread unstuffs its part of the raw data; the first part is then moved
 * up against the second, so the data is contiguous from bit `gap` * 8 on. Returns the
 * route, 0 on irregular data, or -1 when the data cannot be split this way (the caller
 * then decodes on one thread).
 */
static int decode_speculatively(const jpeg_dc_plan *plan, const uint8_t *scan, size_t scan_size, uint8_t *buffer,
                                int32_t *records, jpeg_dc_speculation_memory memory, jpeg_dc_pixel_writer *writer) {
    size_t split = (size_t)((uint64_t)scan_size * FIRST_THREAD_SHARE_PERCENT / 100);
    while (split < scan_size && scan[split - 1] == 0xFF) split++;
    if (split >= scan_size) return -1;
    speculative_run run = {.plan = plan,
                           .raw = scan,
                           .raw_size = scan_size,
                           .split = split,
                           .buffer = buffer,
                           .capacity = plan->mcu_count};
    run.cursor.bit = (uint64_t)split * 8;
    run.records = memory.records;
    run.start_bits = memory.start_bits;
    atomic_init(&run.unstuffed, 0);
    atomic_init(&run.published, 0);
    atomic_init(&run.finished, 0);
    atomic_init(&run.cancelled, 0);
    pthread_t thread;
    if (pthread_create(&thread, NULL, run_speculatively, &run) != 0) return -1;
    size_t first_length = 0;
    int first_part_ok = jpeg_dc_unstuff_part(scan, split, buffer, &first_length, NULL) == JPEG_DC_UNSTUFFED_TO_END;
    size_t gap = split - first_length;
    if (first_part_ok) memmove(buffer + gap, buffer, first_length);
    if (!wait_for_second_half(&run) || !first_part_ok) {
        atomic_store_explicit(&run.cancelled, 1, memory_order_relaxed);
        pthread_join(thread, NULL);
        return -1;
    }
    const jpeg_dc_stream *stream = &run.stream;
    jpeg_dc_cursor cursor = {0, (uint64_t)gap * 8, {0, 0, 0}, 0};
    uint32_t rows_written = 0;
    decode_rows_writing_pixels(plan, stream, &cursor, (uint64_t)split * 8, records, writer, &rows_written);
    uint64_t candidate = 0;
    int ok = !cursor.failed;
    while (ok && cursor.mcu < plan->mcu_count) {
        candidate = find_start_at_or_after(&run, cursor.bit, candidate);
        uint64_t published = atomic_load_explicit(&run.published, memory_order_acquire);
        if (candidate < published && run.start_bits[candidate] == cursor.bit) {
            pthread_join(thread, NULL);
            published = atomic_load_explicit(&run.published, memory_order_acquire);
            int finished = finish_from_speculative_records(plan, &run, candidate, published, &cursor, writer, records,
                                                           rows_written);
            if (finished >= 0) return finished ? JPEG_SHIM_DC_SPECULATIVE_SPLIT : 0;
            if (!adopt_speculative_records(plan, &run, candidate, published, &cursor, records)) return 0;
            if (!decode_sequentially(plan, stream, &cursor, records)) return 0;
            if (!write_completed_rows(plan, writer, records, plan->mcu_count, &rows_written)) return 0;
            return JPEG_SHIM_DC_SPECULATIVE_SPLIT;
        }
        if (candidate >= published) break; /* the speculative thread ended without meeting this one */
        jpeg_dc_decode_run(plan, stream, &cursor, 1, UINT64_MAX, records + cursor.mcu * (uint64_t)plan->record_size,
                           NULL);
        ok = !cursor.failed;
    }
    atomic_store_explicit(&run.cancelled, 1, memory_order_relaxed);
    pthread_join(thread, NULL);
    if (!ok || !decode_sequentially(plan, stream, &cursor, records)) return 0;
    if (!write_completed_rows(plan, writer, records, plan->mcu_count, &rows_written)) return 0;
    return JPEG_SHIM_DC_ONE_THREAD;
}

int jpeg_dc_decode_scan(const jpeg_dc_plan *plan, const uint8_t *scan, size_t scan_size, uint8_t *buffer,
                        int32_t *records, jpeg_dc_speculation_memory speculation, jpeg_dc_pixel_writer *writer) {
    int parallel = scan_size >= PARALLEL_MINIMUM_BYTES && plan->mcu_count > 1;
    if (parallel && plan->restart_interval == 0) {
        int route = decode_speculatively(plan, scan, scan_size, buffer, records, speculation, writer);
        if (route >= 0) return route;
    }
    jpeg_dc_stream stream;
    if (!jpeg_dc_unstuff(scan, scan_size, buffer, &stream)) return 0;
    int route = -1;
    if (parallel && stream.restart_count != 0) route = decode_split_at_restart(plan, &stream, records);
    if (route < 0) {
        jpeg_dc_cursor cursor = {0, 0, {0, 0, 0}, 0};
        route = decode_sequentially(plan, &stream, &cursor, records) ? JPEG_SHIM_DC_ONE_THREAD : 0;
    }
    jpeg_dc_free_stream(&stream);
    uint32_t rows_written = 0;
    if (route != 0 && !write_completed_rows(plan, writer, records, plan->mcu_count, &rows_written)) return 0;
    return route;
}
