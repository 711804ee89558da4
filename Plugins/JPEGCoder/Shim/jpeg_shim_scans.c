/* DCT-scaled decodes of progressive files: only the scans whose coefficients the scaled IDCTs read. */
#include <string.h>

#include "jpeg_shim_internal.h"

/** The zigzag index (the order of coef_bits, Ss and Se) of each coefficient in row-major order. */
static const uint8_t zigzag_index[DCTSIZE2] = {
    0,  1,  5,  6,  14, 15, 27, 28, 2,  4,  7,  13, 16, 26, 29, 42, 3,  8,  12, 17, 25, 30,
    41, 43, 9,  11, 18, 24, 31, 40, 44, 53, 10, 19, 23, 32, 39, 45, 52, 54, 20, 22, 33, 38,
    46, 51, 55, 60, 21, 34, 37, 47, 50, 56, 59, 61, 35, 36, 48, 49, 57, 58, 62, 63,
};

/**
 * The coefficients (bit i = zigzag index i) libjpeg-turbo's IDCT for an output block of
 * `scaled_size` pixels reads: the DC alone for 1; for 2 and 4 the reduced IDCTs of jidctred.c
 * (and their SIMD versions), which read rows and columns 0, 1, 3, 5, 7 and all but 4; every
 * coefficient otherwise.
 */
static uint64_t coefficients_read(int scaled_size) {
    uint8_t lines;
    switch (scaled_size) {
    case 1:
        return 1;
    case 2:
        lines = 0xAB;
        break; /* 0, 1, 3, 5, 7 */
    case 4:
        lines = 0xEF;
        break; /* all but 4 */
    default:
        return ~(uint64_t)0;
    }
    uint64_t mask = 0;
    for (int row = 0; row < DCTSIZE; row++) {
        for (int column = 0; column < DCTSIZE; column++) {
            if ((lines >> row & 1) && (lines >> column & 1))
                mask |= (uint64_t)1 << zigzag_index[row * DCTSIZE + column];
        }
    }
    return mask;
}

/** The coefficients Ss...Se of the current scan. */
static uint64_t scan_coefficients(j_decompress_ptr info) {
    uint64_t mask = 0;
    for (int k = info->Ss; k <= info->Se && k < DCTSIZE2; k++) mask |= (uint64_t)1 << k;
    return mask;
}

/** Whether every coefficient in `needed` of every component is final (coef_bits 0: no bits left to refine). */
static int needed_coefficients_final(j_decompress_ptr info, const uint64_t *needed) {
    if (info->coef_bits == NULL) return 0;
    for (int c = 0; c < info->num_components; c++) {
        for (int k = 0; k < DCTSIZE2; k++) {
            if ((needed[c] >> k & 1) && info->coef_bits[c][k] != 0) return 0;
        }
    }
    return 1;
}

/**
 * Moves the source past the current scan's entropy-coded data, to its next marker other than
 * RSTn: libjpeg then decodes the scan as if its data were empty (all zero, with a warning).
 */
static void skip_scan_data(j_decompress_ptr info) {
    struct jpeg_source_mgr *source = info->src;
    const JOCTET *next = source->next_input_byte;
    const JOCTET *end = next + source->bytes_in_buffer;
    for (;;) {
        next = memchr(next, 0xFF, (size_t)(end - next));
        if (next == NULL || next + 1 >= end) {
            next = end;
            break;
        }
        JOCTET code = next[1];
        if (code != 0x00 && code != 0xFF && (code < 0xD0 || code > 0xD7)) break;
        next++;
    }
    source->bytes_in_buffer -= (size_t)(next - source->next_input_byte);
    source->next_input_byte = next;
}

jpeg_shim_scans_result jpeg_shim_read_needed_scans(j_decompress_ptr info, uint8_t *pixels, size_t stride,
                                                   uint64_t deadline_ns, const int *hit_end_of_data) {
    info->buffered_image = TRUE;
    /* Smoothing guesses coefficients from the neighbours' DC (libjpeg-turbo 2.1 also changes the DC),
     * which a complete file's decode never does. */
    info->do_block_smoothing = FALSE;
    jpeg_start_decompress(info);
    uint64_t needed[MAX_COMPONENTS];
    uint64_t skipped[MAX_COMPONENTS] = {0};
    for (int c = 0; c < info->num_components && c < MAX_COMPONENTS; c++) {
        needed[c] = coefficients_read(info->comp_info[c].DCT_scaled_size);
    }
    for (;;) {
        /* At the start of a scan, before any of its data is read. */
        uint64_t coefficients = scan_coefficients(info);
        int wanted = 0;
        for (int i = 0; i < info->comps_in_scan; i++) {
            int c = info->cur_comp_info[i]->component_index;
            if (coefficients & needed[c]) wanted = 1;
        }
        for (int i = 0; i < info->comps_in_scan; i++) {
            int c = info->cur_comp_info[i]->component_index;
            /* A refinement scan is read against the coefficients earlier scans left: they must all be there. */
            if (wanted && info->Ah != 0 && (coefficients & skipped[c])) return JPEG_SHIM_SCANS_NEED_WHOLE_FILE;
            if (!wanted) skipped[c] |= coefficients;
        }
        if (!wanted) skip_scan_data(info);
        int status;
        do {
            if (webimage_deadline_passed(deadline_ns)) return JPEG_SHIM_SCANS_TIMED_OUT;
            status = jpeg_consume_input(info);
        } while (status == JPEG_ROW_COMPLETED);
        if (status != JPEG_SCAN_COMPLETED || *hit_end_of_data) return JPEG_SHIM_SCANS_NEED_WHOLE_FILE;
        if (needed_coefficients_final(info, needed)) break;
        /* The markers up to the next scan's SOS. */
        if (jpeg_consume_input(info) != JPEG_REACHED_SOS || *hit_end_of_data) return JPEG_SHIM_SCANS_NEED_WHOLE_FILE;
    }
    jpeg_start_output(info, info->input_scan_number);
    if (jpeg_shim_read_rows(info, pixels, stride, deadline_ns)) return JPEG_SHIM_SCANS_TIMED_OUT;
    return JPEG_SHIM_SCANS_DONE;
}
