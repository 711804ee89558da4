/* The 1/8-scale fast path from a reader that has read the header: plan, unstuff, decode, write pixels. */
#include <stdlib.h>

#include "jpeg_dc_internal.h"

static size_t rounded_to_cache_line(uint64_t size) { return (size_t)((size + 63) & ~(uint64_t)63); }

/** Unstuffs, decodes and writes the pixels in `scratch`, laid out as jpeg_dc_decode_eighth sizes it; the route taken or 0. */
static int decode_with_scratch(const jpeg_dc_plan *plan, const uint8_t *scan, size_t scan_size, uint8_t *scratch,
                               uint8_t *pixels, size_t stride) {
    size_t records_size = rounded_to_cache_line(plan->mcu_count * (uint64_t)plan->record_size * sizeof(int32_t));
    uint8_t *stream_bytes = scratch;
    int32_t *records = (int32_t *)(void *)(stream_bytes + rounded_to_cache_line(scan_size + JPEG_DC_PADDING));
    jpeg_dc_speculation_memory speculation = {
        .records = (int32_t *)(void *)((uint8_t *)records + records_size),
        .start_bits = (uint64_t *)(void *)((uint8_t *)records + 2 * records_size),
    };
    jpeg_dc_pixel_writer *writer = malloc(sizeof *writer);
    if (writer == NULL) return 0;
    jpeg_dc_start_pixels(writer, plan, pixels, stride);
    int route = jpeg_dc_decode_scan(plan, scan, scan_size, stream_bytes, records, speculation, writer);
    free(writer);
    return route;
}

int jpeg_dc_decode_eighth(j_decompress_ptr info, const uint8_t *bytes, size_t size, uint8_t *pixels, size_t stride,
                          uint64_t deadline_ns) {
    const uint8_t *scan = info->src->next_input_byte;
    if (scan < bytes || scan > bytes + size) return 0;
    jpeg_dc_plan *plan = malloc(sizeof *plan);
    if (plan == NULL) return 0;
    int route = 0;
    int planned = jpeg_dc_make_plan(info, plan);
    if (planned && info->progressive_mode) {
        route = jpeg_dc_decode_progressive(info, plan, bytes, size, pixels, stride, deadline_ns);
    } else if (planned) {
        uint64_t records_size = plan->mcu_count * (uint64_t)plan->record_size * sizeof(int32_t);
        size_t scan_size = size - (size_t)(scan - bytes);
        if (records_size <= JPEG_DC_MAX_RECORD_BYTES) {
            size_t scratch_size = rounded_to_cache_line(scan_size + JPEG_DC_PADDING) +
                                  2 * rounded_to_cache_line(records_size) + plan->mcu_count * sizeof(uint64_t);
            uint8_t *scratch = jpeg_dc_take_scratch(scratch_size);
            if (scratch != NULL) route = decode_with_scratch(plan, scan, scan_size, scratch, pixels, stride);
            jpeg_dc_return_scratch(scratch);
        }
    }
    free(plan);
    return route;
}
