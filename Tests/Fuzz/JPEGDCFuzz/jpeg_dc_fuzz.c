/*
 * Differential libFuzzer harness for the JPEG plugin's 1/8-scale DC path: every input is
 * decoded at 1/8 scale twice, with the DC path allowed and with libjpeg alone, and the two
 * answers (status, size and every pixel) must be the same. See README.md.
 */
#include "jpeg_shim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/** The most output pixels a decode may have here (1/8 scale, so up to 256 MP sources). */
enum { max_output_pixels = 4 * 1024 * 1024 };

typedef struct answer {
    webimage_status status;
    uint32_t width;
    uint32_t height;
    uint8_t *pixels;
} answer;

static answer decode(const uint8_t *data, size_t size, int allow_dc_path) {
    answer result = {WEBIMAGE_STATUS_OK, 0, 0, NULL};
    char message[256];
    webimage_error error = {message, sizeof message};
    jpeg_shim_reader *reader = NULL;
    jpeg_shim_header header;
    result.status = jpeg_shim_open(data, size, 1, &reader, &header, &result.width, &result.height, &error);
    if (result.status != WEBIMAGE_STATUS_OK) return result;
    if ((uint64_t)result.width * result.height > max_output_pixels) {
        jpeg_shim_close(reader);
        result.status = WEBIMAGE_STATUS_TOO_LARGE;
        return result;
    }
    jpeg_shim_allow_dc_path(reader, allow_dc_path);
    size_t bytes = (size_t)result.width * result.height * 4;
    result.pixels = calloc(bytes ? bytes : 1, 1);
    if (result.pixels == NULL) abort();
    result.status = jpeg_shim_read_image(reader, result.pixels, (size_t)result.width * 4, 0, &error);
    jpeg_shim_close(reader);
    return result;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    answer fast = decode(data, size, 1);
    answer reference = decode(data, size, 0);
    if (fast.status != reference.status || fast.width != reference.width || fast.height != reference.height) abort();
    if (fast.status == WEBIMAGE_STATUS_OK &&
        memcmp(fast.pixels, reference.pixels, (size_t)fast.width * fast.height * 4) != 0) {
        abort();
    }
    free(fast.pixels);
    free(reference.pixels);
    return 0;
}
