/*
 * reference_png_simplified.c — PNG decoding with libpng's simplified API (png_image), the
 * path the "raw C" column of the team's performance anchors uses.
 */
#include <png.h>
#include <string.h>

#include "reference_decoders.h"
#include "reference_error.h"

int reference_png_decode_simplified(const uint8_t *bytes, size_t size, void *out, size_t out_size) {
    if (bytes == NULL || size == 0 || out == NULL) {
        return reference_fail(REFERENCE_ERROR_ARGUMENT, "png_image", "no input or no output buffer");
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes, size)) {
        int status = reference_fail(REFERENCE_ERROR_DECODE, "png_image", image.message);
        png_image_free(&image);
        return status;
    }
    image.format = PNG_FORMAT_RGBA;
    if ((size_t)image.width * image.height * 4 > out_size) {
        png_image_free(&image);
        return reference_fail(REFERENCE_ERROR_BUFFER_TOO_SMALL, "png_image", "the output buffer is too small");
    }
    if (!png_image_finish_read(&image, NULL, out, 0, NULL)) {
        int status = reference_fail(REFERENCE_ERROR_DECODE, "png_image", image.message);
        png_image_free(&image);
        return status;
    }
    return REFERENCE_OK;
}
