/*
 * Differential libFuzzer harness for the PNG plugin's libdeflate path: every input is
 * decoded in full twice, by png_shim_read_image's own choice and by libpng's reader alone,
 * at 8 and at 16 bits, and the two answers (status, message and every pixel) must be the
 * same. See README.md.
 */
#include "png_shim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/** The most pixels a decode may have here. */
enum { max_pixels = 4 * 1024 * 1024 };

typedef struct answer {
    webimage_status status;
    char message[256];
    size_t size;
    uint8_t *pixels;
} answer;

static answer decode(const uint8_t *data, size_t size, int sixteen_bit, png_shim_decoder decoder) {
    answer result;
    memset(&result, 0, sizeof result);
    webimage_error error = {result.message, sizeof result.message};
    png_shim_reader *reader = NULL;
    png_shim_header header;
    int sixteen_bit_output = 0;
    result.status = png_shim_open(data, size, sixteen_bit, &reader, &header, &sixteen_bit_output, &error);
    if (result.status != WEBIMAGE_STATUS_OK) return result;
    if ((uint64_t)header.width * header.height > max_pixels) {
        png_shim_close(reader);
        result.status = WEBIMAGE_STATUS_TOO_LARGE;
        return result;
    }
    size_t stride = (size_t)header.width * (sixteen_bit_output ? 8 : 4);
    result.size = stride * header.height;
    result.pixels = calloc(result.size ? result.size : 1, 1);
    if (result.pixels == NULL) abort();
    result.status = png_shim_read_image_using(reader, result.pixels, stride, decoder, NULL, &error);
    png_shim_close(reader);
    return result;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int sixteen_bit = 0; sixteen_bit < 2; sixteen_bit++) {
        answer automatic = decode(data, size, sixteen_bit, PNG_SHIM_DECODER_AUTOMATIC);
        answer libpng = decode(data, size, sixteen_bit, PNG_SHIM_DECODER_LIBPNG);
        if (automatic.status != libpng.status || automatic.size != libpng.size) abort();
        if (automatic.status != WEBIMAGE_STATUS_OK && strcmp(automatic.message, libpng.message) != 0) abort();
        if (automatic.status == WEBIMAGE_STATUS_OK && memcmp(automatic.pixels, libpng.pixels, automatic.size) != 0)
            abort();
        free(automatic.pixels);
        free(libpng.pixels);
    }
    return 0;
}
