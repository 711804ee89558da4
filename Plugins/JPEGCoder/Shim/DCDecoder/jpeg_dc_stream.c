/* The entropy-coded data of the scan, copied without its stuffed zero bytes, with its restart markers noted. */
#include <stdlib.h>
#include <string.h>

#include "jpeg_dc_internal.h"

static int note_restart(jpeg_dc_stream *stream, size_t *capacity, size_t offset) {
    if (stream->restart_count == *capacity) {
        size_t grown = *capacity == 0 ? 64 : *capacity * 2;
        size_t *offsets = realloc(stream->restart_offsets, grown * sizeof *offsets);
        if (offsets == NULL) return 0;
        stream->restart_offsets = offsets;
        *capacity = grown;
    }
    stream->restart_offsets[stream->restart_count++] = offset;
    return 1;
}

jpeg_dc_unstuff_result jpeg_dc_unstuff_part(const uint8_t *bytes, size_t size, uint8_t *buffer, size_t *written,
                                            jpeg_dc_stream *restarts) {
    size_t restart_capacity = restarts != NULL ? restarts->restart_count : 0;
    size_t read = 0, length = 0;
    for (;;) {
        const uint8_t *marker = memchr(bytes + read, 0xFF, size - read);
        size_t run = marker == NULL ? size - read : (size_t)(marker - (bytes + read));
        memcpy(buffer + length, bytes + read, run);
        length += run;
        read += run;
        *written = length;
        if (marker == NULL) return JPEG_DC_UNSTUFFED_TO_END;
        size_t next = read + 1;
        while (next < size && bytes[next] == 0xFF) next++; /* fill bytes before a marker */
        if (next >= size) return JPEG_DC_UNSTUFF_FAILED;
        uint8_t code = bytes[next];
        if (code == 0x00 && next == read + 1) {
            buffer[length++] = 0xFF;
            read = next + 1;
        } else if (restarts != NULL && code >= 0xD0 && code <= 0xD7 &&
                   code - 0xD0 == (int)(restarts->restart_count % 8)) {
            if (!note_restart(restarts, &restart_capacity, length)) return JPEG_DC_UNSTUFF_FAILED;
            read = next + 1;
        } else {
            *written = length;
            return code == 0xD9 ? JPEG_DC_UNSTUFFED_TO_EOI : JPEG_DC_UNSTUFF_FAILED;
        }
    }
}

int jpeg_dc_unstuff(const uint8_t *bytes, size_t size, uint8_t *buffer, jpeg_dc_stream *stream) {
    memset(stream, 0, sizeof *stream);
    stream->bytes = buffer;
    size_t written = 0;
    if (jpeg_dc_unstuff_part(bytes, size, buffer, &written, stream) != JPEG_DC_UNSTUFFED_TO_EOI) {
        jpeg_dc_free_stream(stream);
        return 0;
    }
    stream->size = written;
    memset(buffer + written, 0, JPEG_DC_PADDING);
    return 1;
}

void jpeg_dc_free_stream(jpeg_dc_stream *stream) {
    free(stream->restart_offsets);
    memset(stream, 0, sizeof *stream);
}
