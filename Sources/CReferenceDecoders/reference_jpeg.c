/*
 * reference_jpeg.c — JPEG decoding with libjpeg(-turbo), reading from memory.
 *
 * Errors: error_exit is replaced so a fatal error longjmps back instead of calling
 * exit(). emit_message is replaced to notice the warning JWRN_JPEG_EOF, which the
 * memory source raises when the data runs out (it then feeds libjpeg a fake EOI marker
 * and libjpeg would otherwise finish with grey rows).
 */
#include <setjmp.h>
#include <stdio.h>

#include <jerror.h>
#include <jpeglib.h>

#include "reference_decoders.h"
#include "reference_error.h"

/** libjpeg's error manager plus what we need to recover and report. */
typedef struct jpeg_failure {
    struct jpeg_error_mgr manager; /* first, so libjpeg's pointer converts to ours */
    jmp_buf jump;
    int warnings;
    int ran_out_of_data;
    char message[JMSG_LENGTH_MAX];
} jpeg_failure;

static void on_error_exit(j_common_ptr cinfo) {
    jpeg_failure *failure = (jpeg_failure *)cinfo->err;
    failure->manager.format_message(cinfo, failure->message);
    longjmp(failure->jump, 1);
}

/** msg_level < 0 is a warning; trace messages (>= 1) are ignored. */
static void on_message(j_common_ptr cinfo, int msg_level) {
    jpeg_failure *failure = (jpeg_failure *)cinfo->err;
    if (msg_level >= 0) return;
    failure->warnings++;
    if (failure->manager.msg_code == JWRN_JPEG_EOF) failure->ran_out_of_data = 1;
}

/** The code and message after a longjmp or when the data ran out. */
static int failure_code(const jpeg_failure *failure) {
    if (failure->ran_out_of_data) {
        return reference_fail(REFERENCE_ERROR_TRUNCATED, "libjpeg", "premature end of JPEG data");
    }
    return reference_fail(REFERENCE_ERROR_DECODE, "libjpeg", failure->message);
}

static int check_input(const uint8_t *bytes, size_t size, unsigned scale_num, unsigned scale_denom) {
    if (bytes == NULL || size == 0) return reference_fail(REFERENCE_ERROR_ARGUMENT, "libjpeg", "no input bytes");
    if (scale_num == 0 || scale_denom == 0) {
        return reference_fail(REFERENCE_ERROR_ARGUMENT, "libjpeg", "the scale must be positive");
    }
    if (size < 2 || bytes[0] != 0xFF || bytes[1] != 0xD8) {
        return reference_fail(size < 2 ? REFERENCE_ERROR_TRUNCATED : REFERENCE_ERROR_NOT_THIS_FORMAT, "libjpeg",
                              "no JPEG SOI marker");
    }
    return REFERENCE_OK;
}

/** Installs the error handlers and the memory source; the caller does setjmp next. */
static void open_jpeg(struct jpeg_decompress_struct *cinfo, jpeg_failure *failure, const uint8_t *bytes, size_t size) {
    cinfo->err = jpeg_std_error(&failure->manager);
    failure->manager.error_exit = on_error_exit;
    failure->manager.emit_message = on_message;
    failure->warnings = 0;
    failure->ran_out_of_data = 0;
    failure->message[0] = '\0';
    jpeg_create_decompress(cinfo);
    jpeg_mem_src(cinfo, bytes, (unsigned long)size);
}

int reference_jpeg_probe(const uint8_t *bytes, size_t size, unsigned scale_num, unsigned scale_denom, uint32_t *width,
                         uint32_t *height) {
    int status = check_input(bytes, size, scale_num, scale_denom);
    if (status != REFERENCE_OK) return status;
    struct jpeg_decompress_struct cinfo;
    jpeg_failure failure;
    open_jpeg(&cinfo, &failure, bytes, size);
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return failure_code(&failure);
    }
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_EXT_RGBA;
    cinfo.scale_num = scale_num;
    cinfo.scale_denom = scale_denom;
    jpeg_calc_output_dimensions(&cinfo);
    *width = cinfo.output_width;
    *height = cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    return REFERENCE_OK;
}

int reference_jpeg_decode_scaled(const uint8_t *bytes, size_t size, unsigned scale_num, unsigned scale_denom, void *out,
                                 size_t out_size) {
    int status = check_input(bytes, size, scale_num, scale_denom);
    if (status != REFERENCE_OK) return status;
    if (out == NULL) return reference_fail(REFERENCE_ERROR_ARGUMENT, "libjpeg", "no output buffer");
    struct jpeg_decompress_struct cinfo;
    jpeg_failure failure;
    open_jpeg(&cinfo, &failure, bytes, size);
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return failure_code(&failure);
    }
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_EXT_RGBA; /* libjpeg-turbo extension: RGBX with X = 255 */
    cinfo.scale_num = scale_num;
    cinfo.scale_denom = scale_denom;
    jpeg_start_decompress(&cinfo);

    const size_t stride = (size_t)cinfo.output_width * 4;
    if (cinfo.output_height != 0 && stride > out_size / cinfo.output_height) {
        jpeg_destroy_decompress(&cinfo);
        return reference_fail(REFERENCE_ERROR_BUFFER_TOO_SMALL, "libjpeg", "the output buffer is too small");
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = (JSAMPROW)out + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (failure.ran_out_of_data) return failure_code(&failure);
    return REFERENCE_OK;
}

int reference_jpeg_decode(const uint8_t *bytes, size_t size, void *out, size_t out_size) {
    return reference_jpeg_decode_scaled(bytes, size, 1, 1, out, out_size);
}
