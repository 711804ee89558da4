/* Whole-image decoding from memory, full size or DCT-scaled. */
#include <stdlib.h>
#include <string.h>

#include "DCDecoder/jpeg_dc_internal.h"

struct jpeg_shim_reader {
    struct jpeg_decompress_struct info;
    jpeg_shim_error_manager errors;
    int created;
    const uint8_t *bytes;
    size_t size;
    /** Whether a 1/8-scale decode may take the DC fast path (default on), and how the last one went. */
    int allows_dc_path;
    jpeg_shim_dc_route dc_route;
};

uint32_t jpeg_shim_scale_for_box(uint32_t width, uint32_t height, uint32_t box_width, uint32_t box_height) {
    if (box_width == 0 || box_height == 0) return 8;
    static const uint32_t choices[] = {1, 2, 4};
    for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++) {
        uint64_t scaled_width = ((uint64_t)width * choices[i] + 7) / 8;
        uint64_t scaled_height = ((uint64_t)height * choices[i] + 7) / 8;
        if (scaled_width >= box_width && scaled_height >= box_height) return choices[i];
    }
    return 8;
}

static int looks_like_jpeg(const uint8_t *bytes, size_t size) {
    return size >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

webimage_status jpeg_shim_read_header(const uint8_t *bytes, size_t size, jpeg_shim_header *header,
                                      webimage_error *error) {
    jpeg_shim_reader *reader = NULL;
    uint32_t width = 0, height = 0;
    webimage_status status = jpeg_shim_open(bytes, size, 8, &reader, header, &width, &height, error);
    jpeg_shim_close(reader);
    return status;
}

webimage_status jpeg_shim_open(const uint8_t *bytes, size_t size, uint32_t scale_eighths, jpeg_shim_reader **out,
                               jpeg_shim_header *header, uint32_t *width, uint32_t *height, webimage_error *error) {
    *out = NULL;
    if (!looks_like_jpeg(bytes, size)) {
        if (size < 3 && (size == 0 || bytes[0] == 0xFF) && (size < 2 || bytes[1] == 0xD8)) {
            return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends inside the JPEG signature");
        }
        return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "not a JPEG file (no SOI marker)");
    }
    if (scale_eighths != 1 && scale_eighths != 2 && scale_eighths != 4 && scale_eighths != 8) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "the scale must be 1, 2, 4 or 8 eighths");
    }
    jpeg_shim_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    jpeg_shim_use_error_manager((j_common_ptr)&reader->info, &reader->errors);
    if (setjmp(reader->errors.jump)) {
        webimage_status status = reader->errors.hit_end_of_data ? webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA,
                                                                                "the file ends inside the JPEG header")
                                                                : jpeg_shim_caught(&reader->errors, error);
        jpeg_shim_close(reader);
        return status;
    }
    jpeg_create_decompress(&reader->info);
    reader->created = 1;
    reader->bytes = bytes;
    reader->size = size;
    reader->allows_dc_path = 1;
    jpeg_mem_src(&reader->info, bytes, (unsigned long)size);
    jpeg_shim_keep_exif(&reader->info);
    jpeg_read_header(&reader->info, TRUE);
    if (reader->errors.hit_end_of_data) longjmp(reader->errors.jump, 1);
    jpeg_shim_fill_header(&reader->info, header);
    jpeg_shim_choose_output(&reader->info);
    reader->info.scale_num = scale_eighths;
    reader->info.scale_denom = 8;
    jpeg_calc_output_dimensions(&reader->info);
    *width = reader->info.output_width;
    *height = reader->info.output_height;
    *out = reader;
    return WEBIMAGE_STATUS_OK;
}

webimage_status jpeg_shim_rescale(jpeg_shim_reader *reader, uint32_t scale_eighths, uint32_t *width, uint32_t *height,
                                  webimage_error *error) {
    if (scale_eighths != 1 && scale_eighths != 2 && scale_eighths != 4 && scale_eighths != 8) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "the scale must be 1, 2, 4 or 8 eighths");
    }
    if (setjmp(reader->errors.jump)) return jpeg_shim_caught(&reader->errors, error);
    reader->info.scale_num = scale_eighths;
    reader->info.scale_denom = 8;
    jpeg_calc_output_dimensions(&reader->info);
    *width = reader->info.output_width;
    *height = reader->info.output_height;
    return WEBIMAGE_STATUS_OK;
}

uint64_t jpeg_shim_working_bytes(jpeg_shim_reader *reader) { return jpeg_shim_coefficient_bytes(&reader->info); }

void jpeg_shim_allow_dc_path(jpeg_shim_reader *reader, bool allowed) { reader->allows_dc_path = allowed; }

jpeg_shim_dc_route jpeg_shim_last_dc_route(const jpeg_shim_reader *reader) { return reader->dc_route; }

/** Rewinds an open reader to just after its header, with the same output settings (for a second decode). */
static void restart(jpeg_shim_reader *reader) {
    unsigned int scale_num = reader->info.scale_num;
    jpeg_abort_decompress(&reader->info);
    reader->errors.hit_end_of_data = 0;
    jpeg_mem_src(&reader->info, reader->bytes, (unsigned long)reader->size);
    jpeg_read_header(&reader->info, TRUE);
    jpeg_shim_choose_output(&reader->info);
    reader->info.scale_num = scale_num;
    reader->info.scale_denom = 8;
}

webimage_status jpeg_shim_read_image(jpeg_shim_reader *reader, void *pixels, size_t stride, uint64_t deadline_ns,
                                     webimage_error *error) {
    reader->dc_route = JPEG_SHIM_DC_NOT_USED;
    if (reader->allows_dc_path && reader->info.scale_num == 1 && reader->info.scale_denom == 8) {
        reader->dc_route = (jpeg_shim_dc_route)jpeg_dc_decode_eighth(&reader->info, reader->bytes, reader->size, pixels,
                                                                     stride, deadline_ns);
        if (reader->dc_route != JPEG_SHIM_DC_NOT_USED) return WEBIMAGE_STATUS_OK;
    }
    if (setjmp(reader->errors.jump)) return jpeg_shim_caught(&reader->errors, error);
    if (reader->info.progressive_mode && reader->info.scale_num < reader->info.scale_denom) {
        jpeg_shim_scans_result result =
            jpeg_shim_read_needed_scans(&reader->info, pixels, stride, deadline_ns, &reader->errors.hit_end_of_data);
        if (result == JPEG_SHIM_SCANS_DONE) return WEBIMAGE_STATUS_OK;
        if (result == JPEG_SHIM_SCANS_TIMED_OUT) return webimage_fail_deadline(error);
        restart(reader);
    }
    jpeg_start_decompress(&reader->info);
    if (jpeg_shim_read_rows(&reader->info, pixels, stride, deadline_ns)) return webimage_fail_deadline(error);
    if (reader->errors.hit_end_of_data) {
        return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends before the image is complete");
    }
    jpeg_finish_decompress(&reader->info);
    if (reader->errors.hit_end_of_data) {
        return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends before the image is complete");
    }
    return WEBIMAGE_STATUS_OK;
}

void jpeg_shim_close(jpeg_shim_reader *reader) {
    if (reader == NULL) return;
    if (reader->created) jpeg_destroy_decompress(&reader->info);
    free(reader);
}
