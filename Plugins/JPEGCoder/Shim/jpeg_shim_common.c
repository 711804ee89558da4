/* The error manager, EXIF orientation, output colour space and CMYK conversion. */
#include <string.h>

#include "jpeg_shim_internal.h"

webimage_status jpeg_shim_caught(const jpeg_shim_error_manager *manager, webimage_error *error) {
    webimage_status status = WEBIMAGE_STATUS_CORRUPT_DATA;
    if (manager->forced_status != WEBIMAGE_STATUS_OK) status = manager->forced_status;
    else if (manager->hit_end_of_data) status = WEBIMAGE_STATUS_TRUNCATED_DATA;
    return webimage_fail(error, status, manager->message);
}

static void on_error(j_common_ptr info) {
    jpeg_shim_error_manager *manager = (jpeg_shim_error_manager *)info->err;
    (*info->err->format_message)(info, manager->message);
    longjmp(manager->jump, 1);
}

static void on_message(j_common_ptr info, int level) {
    jpeg_shim_error_manager *manager = (jpeg_shim_error_manager *)info->err;
    if (level < 0) {
        if (info->err->msg_code == JWRN_JPEG_EOF) manager->hit_end_of_data = 1;
        info->err->num_warnings++;
    }
}

void jpeg_shim_use_error_manager(j_common_ptr info, jpeg_shim_error_manager *manager) {
    memset(manager, 0, sizeof *manager);
    info->err = jpeg_std_error(&manager->base);
    manager->base.error_exit = on_error;
    manager->base.emit_message = on_message;
}

void jpeg_shim_keep_exif(j_decompress_ptr info) { jpeg_save_markers(info, JPEG_APP0 + 1, 0xFFFF); }

static uint32_t read16(const uint8_t *p, int little_endian) {
    return little_endian ? (uint32_t)p[0] | (uint32_t)p[1] << 8 : (uint32_t)p[0] << 8 | (uint32_t)p[1];
}

static uint32_t read32(const uint8_t *p, int little_endian) {
    return little_endian ? read16(p, 1) | read16(p + 2, 1) << 16 : read16(p, 0) << 16 | read16(p + 2, 0);
}

/** The orientation tag (0x0112) of IFD0 in an APP1 "Exif" payload; 1 when absent or malformed. */
static int32_t exif_orientation(const uint8_t *data, size_t size) {
    if (size < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *tiff = data + 6;
    size_t tiff_size = size - 6;
    int little_endian;
    if (memcmp(tiff, "II*\0", 4) == 0) little_endian = 1;
    else if (memcmp(tiff, "MM\0*", 4) == 0) little_endian = 0;
    else return 1;
    uint32_t ifd = read32(tiff + 4, little_endian);
    if (ifd > tiff_size - 2 || ifd < 8) return 1;
    uint32_t count = read16(tiff + ifd, little_endian);
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry + 12 > tiff_size) return 1;
        if (read16(tiff + entry, little_endian) != 0x0112) continue;
        uint32_t type = read16(tiff + entry + 2, little_endian);
        uint32_t value = type == 3 ? read16(tiff + entry + 8, little_endian) : 0;
        return value >= 1 && value <= 8 ? (int32_t)value : 1;
    }
    return 1;
}

void jpeg_shim_fill_header(j_decompress_ptr info, jpeg_shim_header *header) {
    header->width = info->image_width;
    header->height = info->image_height;
    header->components = info->num_components;
    header->progressive = jpeg_has_multiple_scans(info) ? 1 : 0;
    header->cmyk = info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK;
    header->orientation = 1;
    for (jpeg_saved_marker_ptr marker = info->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1) continue;
        int32_t orientation = exif_orientation(marker->data, marker->data_length);
        if (orientation != 1 || memcmp(marker->data, "Exif", 4) == 0) {
            header->orientation = orientation;
            break;
        }
    }
}

void jpeg_shim_choose_output(j_decompress_ptr info) {
    if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK) {
        info->out_color_space = JCS_CMYK;
    } else {
        info->out_color_space = JCS_EXT_RGBA;
    }
}

void jpeg_shim_cmyk_to_rgba(uint8_t *row, uint32_t count, int inverted) {
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *pixel = row + (size_t)i * 4;
        uint32_t c = pixel[0], m = pixel[1], y = pixel[2], k = pixel[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        pixel[0] = (uint8_t)((c * k + 127) / 255);
        pixel[1] = (uint8_t)((m * k + 127) / 255);
        pixel[2] = (uint8_t)((y * k + 127) / 255);
        pixel[3] = 255;
    }
}

int jpeg_shim_read_rows(j_decompress_ptr info, uint8_t *pixels, size_t stride, uint64_t deadline_ns) {
    int cmyk = info->out_color_space == JCS_CMYK;
    int inverted = info->saw_Adobe_marker;
    JDIMENSION next_check = info->output_scanline + 64;
    while (info->output_scanline < info->output_height) {
        if (info->output_scanline >= next_check) {
            if (webimage_deadline_passed(deadline_ns)) return 1;
            next_check = info->output_scanline + 64;
        }
        JSAMPROW rows[8];
        JDIMENSION first = info->output_scanline;
        JDIMENSION wanted = info->output_height - first;
        if (wanted > 8) wanted = 8;
        for (JDIMENSION i = 0; i < wanted; i++) rows[i] = pixels + (size_t)(first + i) * stride;
        JDIMENSION read = jpeg_read_scanlines(info, rows, wanted);
        if (cmyk) {
            for (JDIMENSION i = 0; i < read; i++) jpeg_shim_cmyk_to_rgba(rows[i], info->output_width, inverted);
        }
        if (read == 0) break;
    }
    return 0;
}

uint64_t jpeg_shim_coefficient_bytes(j_decompress_ptr info) {
    if (!info->progressive_mode && !info->buffered_image && info->comps_in_scan >= info->num_components) return 0;
    uint64_t bytes = 0;
    for (int i = 0; i < info->num_components; i++) {
        const jpeg_component_info *component = &info->comp_info[i];
        /* libjpeg rounds each plane up to whole MCUs: at most one more block row and column. */
        bytes += ((uint64_t)component->width_in_blocks + component->h_samp_factor) *
                 ((uint64_t)component->height_in_blocks + component->v_samp_factor) * sizeof(JBLOCK);
    }
    return bytes;
}
