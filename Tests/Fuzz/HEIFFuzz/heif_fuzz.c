/*
 * libFuzzer harness for the HEIF plugin's decode path: the C shim (box reading, thumbnail
 * choice, libheif decode through the two-thread libde265 plugin or dav1d/aom, the copy into
 * a host-style buffer) exactly as HEIFImageCoder.decode drives it. See README.md.
 */
#include "heif_shim.h"

#include <stdint.h>
#include <stdlib.h>

/** The pixel limit the harness decodes under (the host's default is 100 M; smaller keeps runs fast). */
enum { max_pixels = 4 * 1024 * 1024 };

static void decode(const uint8_t *data, size_t size, int sixteen_bit, int thumbnail) {
    char message[256];
    webimage_error error = {message, sizeof message};
    heif_shim_reader *reader = NULL;
    heif_shim_info info;
    if (heif_shim_open(data, size, max_pixels, &reader, &info, &error) != WEBIMAGE_STATUS_OK) return;
    uint32_t width = 0, height = 0;
    if (thumbnail) heif_shim_use_thumbnail(reader, 16, 16, &width, &height);
    heif_shim_decoded *decoded = NULL;
    int deep = 0;
    if (heif_shim_decode(reader, sixteen_bit, max_pixels, &decoded, &width, &height, &deep, &error) ==
        WEBIMAGE_STATUS_OK) {
        size_t stride = (size_t)width * (deep ? 8 : 4);
        void *pixels = malloc(stride * height);
        if (pixels) heif_shim_copy(decoded, pixels, stride);
        free(pixels);
        heif_shim_release(decoded);
    }
    heif_shim_close(reader);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The last byte picks the variant, so the fuzzer explores all three. */
    int variant = size > 0 ? data[size - 1] % 3 : 0;
    decode(data, size, variant == 1, variant == 2);
    return 0;
}
