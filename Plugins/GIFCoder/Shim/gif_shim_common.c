/* Error helpers and the segment reader giflib reads through. */
#include <string.h>

#include "gif_shim_internal.h"

webimage_status gif_shim_giflib_error(webimage_error *error, int code, int hit_end, const char *context) {
    if (hit_end) return webimage_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends %s", context);
    const char *reason = GifErrorString(code);
    webimage_status status =
        code == D_GIF_ERR_NOT_ENOUGH_MEM ? WEBIMAGE_STATUS_OUT_OF_MEMORY : WEBIMAGE_STATUS_CORRUPT_DATA;
    return webimage_failf(error, status, "%s: %s", context, reason != NULL ? reason : "giflib failed");
}

int gif_read_segments(GifFileType *gif, GifByteType *buffer, int length) {
    gif_segment_reader *reader = gif->UserData;
    int copied = 0;
    while (copied < length && reader->current < reader->count) {
        size_t available = reader->lengths[reader->current] - reader->offset;
        size_t wanted = (size_t)(length - copied);
        size_t chunk = available < wanted ? available : wanted;
        memcpy(buffer + copied, reader->segments[reader->current] + reader->offset, chunk);
        copied += (int)chunk;
        reader->offset += chunk;
        if (reader->offset == reader->lengths[reader->current]) {
            reader->current++;
            reader->offset = 0;
        }
    }
    reader->position += (size_t)copied;
    if (copied < length) reader->hit_end = 1;
    return copied;
}
