/* Error helpers and the segment reader giflib reads through. */
#include <stdio.h>
#include <string.h>

#include "gif_shim_internal.h"

gif_shim_status gif_shim_fail(gif_shim_error *error, gif_shim_status status, const char *message) {
    if (error->capacity == 0) return status;
    size_t length = strlen(message);
    if (length >= error->capacity) length = error->capacity - 1;
    memcpy(error->message, message, length);
    error->message[length] = '\0';
    return status;
}

gif_shim_status gif_shim_giflib_error(gif_shim_error *error, int code, int hit_end, const char *context) {
    char message[200];
    if (hit_end) {
        snprintf(message, sizeof message, "the file ends %s", context);
        return gif_shim_fail(error, GIF_SHIM_TRUNCATED, message);
    }
    const char *reason = GifErrorString(code);
    snprintf(message, sizeof message, "%s: %s", context, reason != NULL ? reason : "giflib failed");
    return gif_shim_fail(error, code == D_GIF_ERR_NOT_ENOUGH_MEM ? GIF_SHIM_OUT_OF_MEMORY : GIF_SHIM_CORRUPT, message);
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
