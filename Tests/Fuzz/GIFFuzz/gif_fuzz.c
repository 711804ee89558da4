/*
 * libFuzzer harness for the GIF plugin's decoder (its C shim, where all parsing happens):
 * opens the input strictly and leniently, then composites every frame, in order and
 * again out of order, with a 16-megapixel limit.
 */
#include <stdint.h>
#include <stdlib.h>

#include "gif_shim.h"

static void decode_all(const uint8_t *data, size_t size, int allow_partial) {
    char message[256];
    webimage_error error = {message, sizeof message};
    gif_shim_animation *animation = NULL;
    gif_shim_info info;
    if (gif_shim_open(data, size, allow_partial, 16u << 20, &animation, &info, &error) != WEBIMAGE_STATUS_OK) return;
    uint8_t *pixels = malloc((size_t)info.width * info.height * 4);
    if (pixels != NULL) {
        for (uint32_t i = 0; i < info.frame_count && i < 64; i++) {
            gif_shim_decode_frame(animation, i, pixels, (size_t)info.width * 4, &error);
            (void)gif_shim_frame_duration(animation, i);
        }
        if (info.frame_count > 1) gif_shim_decode_frame(animation, 0, pixels, (size_t)info.width * 4, &error);
        free(pixels);
    }
    gif_shim_close(animation);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    decode_all(data, size, 0);
    decode_all(data, size, 1);
    return 0;
}
