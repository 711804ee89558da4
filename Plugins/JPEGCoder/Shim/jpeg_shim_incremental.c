/*
 * Incremental decoding with a suspending data source: libjpeg returns whenever it runs
 * out of bytes and resumes from its last committed position on the next append.
 * Sequential files show the rows decoded so far; progressive files run in buffered-image
 * mode and show the image as of the last complete scan.
 */
#include <stdlib.h>
#include <string.h>

#include "jpeg_shim_internal.h"

typedef enum stage { STAGE_HEADER, STAGE_START, STAGE_ROWS, STAGE_SCANS, STAGE_FINISH, STAGE_DONE } stage;

struct jpeg_shim_incremental {
    struct jpeg_decompress_struct info;
    jpeg_shim_error_manager errors;
    struct jpeg_source_mgr source;
    /** Every byte appended so far; the source points into it. */
    uint8_t *data;
    size_t size;
    size_t capacity;
    /** Bytes libjpeg asked to skip beyond what had arrived. */
    size_t skip_pending;
    int is_final;
    stage stage;
    int finish_output_pending;
    uint64_t max_pixel_count;
    uint64_t max_byte_count;
    uint8_t *pixels;
    jpeg_shim_canvas canvas;
    webimage_status failure;
    char failure_message[JMSG_LENGTH_MAX];
};

static const JOCTET fake_end_of_image[2] = {0xFF, JPEG_EOI};

static void init_source(j_decompress_ptr info) { (void)info; }

static boolean fill_input_buffer(j_decompress_ptr info) {
    jpeg_shim_incremental *decoder = info->client_data;
    if (!decoder->is_final) return FALSE;
    WARNMS(info, JWRN_JPEG_EOF);
    decoder->source.next_input_byte = fake_end_of_image;
    decoder->source.bytes_in_buffer = 2;
    return TRUE;
}

static void skip_input_data(j_decompress_ptr info, long count) {
    jpeg_shim_incremental *decoder = info->client_data;
    if (count <= 0) return;
    if ((size_t)count <= decoder->source.bytes_in_buffer) {
        decoder->source.next_input_byte += count;
        decoder->source.bytes_in_buffer -= (size_t)count;
        return;
    }
    decoder->skip_pending += (size_t)count - decoder->source.bytes_in_buffer;
    decoder->source.next_input_byte += decoder->source.bytes_in_buffer;
    decoder->source.bytes_in_buffer = 0;
}

static void term_source(j_decompress_ptr info) { (void)info; }

jpeg_shim_incremental *jpeg_shim_incremental_create(uint64_t max_pixel_count, uint64_t max_byte_count) {
    jpeg_shim_incremental *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->max_pixel_count = max_pixel_count;
    decoder->max_byte_count = max_byte_count;
    jpeg_shim_use_error_manager((j_common_ptr)&decoder->info, &decoder->errors);
    if (setjmp(decoder->errors.jump)) {
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->info.client_data = decoder;
    decoder->source.init_source = init_source;
    decoder->source.fill_input_buffer = fill_input_buffer;
    decoder->source.skip_input_data = skip_input_data;
    decoder->source.resync_to_restart = jpeg_resync_to_restart;
    decoder->source.term_source = term_source;
    decoder->info.src = &decoder->source;
    jpeg_shim_keep_exif(&decoder->info);
    return decoder;
}

/** Appends bytes to the buffer and re-points the source at the same unread position. */
static int store(jpeg_shim_incremental *decoder, const uint8_t *bytes, size_t size) {
    const JOCTET *next = decoder->source.next_input_byte;
    int inside =
        next != NULL && decoder->data != NULL && next >= decoder->data && next <= decoder->data + decoder->size;
    size_t offset = inside ? (size_t)(next - decoder->data) : decoder->size;
    if (next == NULL) offset = 0;
    if (size > decoder->capacity - decoder->size) {
        size_t capacity = decoder->capacity < 65536 ? 65536 : decoder->capacity;
        while (size > capacity - decoder->size) capacity *= 2;
        uint8_t *grown = realloc(decoder->data, capacity);
        if (grown == NULL) return 0;
        decoder->data = grown;
        decoder->capacity = capacity;
    }
    memcpy(decoder->data + decoder->size, bytes, size);
    decoder->size += size;
    size_t skip = decoder->skip_pending < decoder->size - offset ? decoder->skip_pending : decoder->size - offset;
    decoder->skip_pending -= skip;
    offset += skip;
    decoder->source.next_input_byte = decoder->data + offset;
    decoder->source.bytes_in_buffer = decoder->size - offset;
    return 1;
}

static void start_canvas(jpeg_shim_incremental *decoder) {
    struct jpeg_decompress_struct *info = &decoder->info;
    jpeg_shim_fill_header(info, &decoder->canvas.header);
    webimage_error limit = {decoder->errors.message, sizeof decoder->errors.message};
    if (webimage_check_pixel_limit(info->image_width, info->image_height, decoder->max_pixel_count, &limit) !=
        WEBIMAGE_STATUS_OK) {
        decoder->errors.forced_status = WEBIMAGE_STATUS_TOO_LARGE;
        longjmp(decoder->errors.jump, 1);
    }
    jpeg_shim_choose_output(info);
    info->buffered_image = decoder->canvas.header.progressive ? TRUE : FALSE;
    /* The canvas, the copy of it the host hands out, and libjpeg's coefficient buffer. */
    uint64_t canvas_bytes = (uint64_t)info->image_width * info->image_height * 4;
    uint64_t needed = canvas_bytes * 2 + jpeg_shim_coefficient_bytes(info);
    if (webimage_check_byte_limit(needed, decoder->max_byte_count, "the canvas and its copy", &limit) !=
        WEBIMAGE_STATUS_OK) {
        decoder->errors.forced_status = WEBIMAGE_STATUS_TOO_LARGE;
        longjmp(decoder->errors.jump, 1);
    }
    decoder->canvas.stride = (size_t)info->image_width * 4;
    decoder->pixels = calloc(info->image_height, decoder->canvas.stride);
    if (decoder->pixels == NULL) {
        decoder->errors.forced_status = WEBIMAGE_STATUS_OUT_OF_MEMORY;
        strcpy(decoder->errors.message, "out of memory for the image");
        longjmp(decoder->errors.jump, 1);
    }
}

/** Runs one output pass of a complete scan (no input needed) into the canvas. */
static void show_scan(jpeg_shim_incremental *decoder, int scan) {
    struct jpeg_decompress_struct *info = &decoder->info;
    jpeg_start_output(info, scan);
    jpeg_shim_read_rows(info, decoder->pixels, decoder->canvas.stride, 0);
    decoder->canvas.pixels = decoder->pixels;
    decoder->finish_output_pending = !jpeg_finish_output(info);
}

/** Decodes as far as the bytes so far allow. */
static void advance(jpeg_shim_incremental *decoder) {
    struct jpeg_decompress_struct *info = &decoder->info;
    for (;;) {
        switch (decoder->stage) {
        case STAGE_HEADER:
            if (jpeg_read_header(info, TRUE) == JPEG_SUSPENDED) return;
            start_canvas(decoder);
            decoder->stage = STAGE_START;
            break;
        case STAGE_START:
            if (!jpeg_start_decompress(info)) return;
            decoder->stage = decoder->canvas.header.progressive ? STAGE_SCANS : STAGE_ROWS;
            break;
        case STAGE_ROWS:
            jpeg_shim_read_rows(info, decoder->pixels, decoder->canvas.stride, 0);
            if (info->output_scanline > 0) decoder->canvas.pixels = decoder->pixels;
            if (info->output_scanline < info->output_height) return;
            decoder->stage = STAGE_FINISH;
            break;
        case STAGE_SCANS:
            if (decoder->finish_output_pending) {
                if (!jpeg_finish_output(info)) return;
                decoder->finish_output_pending = 0;
            }
            if (jpeg_input_complete(info)) {
                show_scan(decoder, info->input_scan_number);
                if (decoder->finish_output_pending) return;
                decoder->stage = STAGE_FINISH;
                break;
            }
            switch (jpeg_consume_input(info)) {
            case JPEG_SUSPENDED:
                return;
            case JPEG_SCAN_COMPLETED:
                show_scan(decoder, info->input_scan_number);
                break;
            default:
                break;
            }
            break;
        case STAGE_FINISH:
            if (!jpeg_finish_decompress(info)) return;
            decoder->canvas.complete = 1;
            decoder->stage = STAGE_DONE;
            return;
        case STAGE_DONE:
            return;
        }
    }
}

static webimage_status remember(jpeg_shim_incremental *decoder, webimage_status status, const char *message,
                                webimage_error *error) {
    decoder->failure = status;
    strncpy(decoder->failure_message, message, sizeof decoder->failure_message - 1);
    return webimage_fail(error, status, message);
}

webimage_status jpeg_shim_incremental_append(jpeg_shim_incremental *decoder, const uint8_t *bytes, size_t size,
                                             bool is_final, webimage_error *error) {
    if (decoder->failure != WEBIMAGE_STATUS_OK) {
        return webimage_fail(error, decoder->failure, decoder->failure_message);
    }
    if (decoder->size == 0 && size >= 2 && (bytes[0] != 0xFF || bytes[1] != 0xD8)) {
        return remember(decoder, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "not a JPEG file (no SOI marker)", error);
    }
    if (size > 0 && bytes != NULL && !store(decoder, bytes, size)) {
        return remember(decoder, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory for the incoming bytes", error);
    }
    decoder->is_final = is_final;
    if (setjmp(decoder->errors.jump)) {
        webimage_status status = jpeg_shim_caught(&decoder->errors, error);
        return remember(decoder, status, decoder->errors.message, error);
    }
    advance(decoder);
    if (is_final && (!decoder->canvas.complete || decoder->errors.hit_end_of_data)) {
        decoder->canvas.complete = 0;
        return remember(decoder, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends before the image is complete", error);
    }
    return WEBIMAGE_STATUS_OK;
}

void jpeg_shim_incremental_canvas(const jpeg_shim_incremental *decoder, jpeg_shim_canvas *canvas) {
    *canvas = decoder->canvas;
}

void jpeg_shim_incremental_destroy(jpeg_shim_incremental *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->info);
    free(decoder->pixels);
    free(decoder->data);
    free(decoder);
}
