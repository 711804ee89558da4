/* Shared by the JPEG shim's files: the longjmp error manager, EXIF and colour helpers. */
#ifndef WEBIMAGE_JPEG_SHIM_INTERNAL_H
#define WEBIMAGE_JPEG_SHIM_INTERNAL_H

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>
#include <jerror.h>

#include "jpeg_shim.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/** An error manager that longjmps to `jump` and remembers why. */
typedef struct jpeg_shim_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    /** Set when libjpeg warned that the data ended early (it then pads with a fake EOI). */
    int hit_end_of_data;
    /** A status chosen by the shim before it raised the error (0 = none). */
    webimage_status forced_status;
} jpeg_shim_error_manager;

/** Installs `manager` as `info`'s error handler. */
void jpeg_shim_use_error_manager(j_common_ptr info, jpeg_shim_error_manager *manager);

/** The status and message for an error caught by setjmp. */
webimage_status jpeg_shim_caught(const jpeg_shim_error_manager *manager, webimage_error *error);

/** Asks libjpeg to keep APP1 markers (EXIF) while reading the header. */
void jpeg_shim_keep_exif(j_decompress_ptr info);

/** Fills `header` after jpeg_read_header, including the EXIF orientation. */
void jpeg_shim_fill_header(j_decompress_ptr info, jpeg_shim_header *header);

/** Chooses the output colour space: RGBA for gray / YCbCr / RGB, CMYK for CMYK / YCCK. */
void jpeg_shim_choose_output(j_decompress_ptr info);

/** Converts a row of `count` CMYK pixels (Adobe-inverted when `inverted`) in place to RGBA. */
void jpeg_shim_cmyk_to_rgba(uint8_t *row, uint32_t count, int inverted);

/**
 * Bytes of the whole-image coefficient buffer libjpeg allocates for a file read in several
 * scans (progressive, or components in separate scans, or buffered-image mode): 128 bytes a
 * DCT block of every component. 0 for a single interleaved scan. Valid after jpeg_read_header.
 */
uint64_t jpeg_shim_coefficient_bytes(j_decompress_ptr info);

/**
 * Reads every remaining scanline of the current output pass into `pixels`; handles CMYK.
 * Returns 1 when it stopped early because `deadline_ns` (CLOCK_MONOTONIC, 0 = none, checked
 * every 64 rows) passed, else 0.
 */
int jpeg_shim_read_rows(j_decompress_ptr info, uint8_t *pixels, size_t stride, uint64_t deadline_ns);

/** How jpeg_shim_read_needed_scans ended. */
typedef enum jpeg_shim_scans_result {
    /** The output pass is in the pixels. */
    JPEG_SHIM_SCANS_DONE = 0,
    /** The deadline passed. */
    JPEG_SHIM_SCANS_TIMED_OUT = 1,
    /**
     * The file ended (or was cut short) before the needed coefficients were final, or a scan the
     * scale needs refines coefficients of a skipped one: decode the whole file from the start.
     */
    JPEG_SHIM_SCANS_NEED_WHOLE_FILE = 2,
} jpeg_shim_scans_result;

/**
 * A DCT-scaled decode of a progressive file after jpeg_read_header, in buffered-image mode:
 * the scans that carry none of the coefficients the scaled IDCTs read are skipped unread, input
 * stops once those coefficients are final in every component, and that output pass is written
 * into `pixels` (as jpeg_shim_read_rows). The pixels equal those of a whole-file decode.
 * `hit_end_of_data` is the error manager's flag. libjpeg errors longjmp as usual.
 */
jpeg_shim_scans_result jpeg_shim_read_needed_scans(j_decompress_ptr info, uint8_t *pixels, size_t stride,
                                                   uint64_t deadline_ns, const int *hit_end_of_data);

#pragma GCC visibility pop

#endif
