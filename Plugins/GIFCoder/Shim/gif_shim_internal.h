/* Shared by the GIF shim's files: the frame table, the animation state, the segment reader. */
#ifndef WEBIMAGE_GIF_SHIM_INTERNAL_H
#define WEBIMAGE_GIF_SHIM_INTERNAL_H

#include <gif_lib.h>

#include "gif_shim.h"


/** Where a frame's bytes are and how it is drawn. */
typedef struct gif_frame_record {
    /** Offset of the image descriptor's 0x2C byte. */
    size_t descriptor_offset;
    /** Offset just after the frame's last data sub-block. */
    size_t data_end;
    int left, top, width, height;
    /** Delay in hundredths of a second, as stored. */
    int delay;
    int disposal;
    /** Transparent colour index, or -1. */
    int transparent_index;
    /** Set once decoding this frame failed; later frames skip it. */
    int broken;
} gif_frame_record;

struct gif_shim_animation {
    const uint8_t *bytes;
    size_t size;
    /** End of the header, logical screen descriptor and global colour table. */
    size_t screen_end;
    gif_shim_info info;
    gif_frame_record *frames;
    /** RGBA8 canvas after frame `drawn` (-1: nothing drawn yet). */
    uint8_t *canvas;
    /** The canvas before the last drawn frame, for DISPOSE_PREVIOUS. */
    uint8_t *saved;
    int drawn;
};

/** Reads bytes from up to three memory segments in order, as one stream. */
typedef struct gif_segment_reader {
    const uint8_t *segments[3];
    size_t lengths[3];
    int count;
    int current;
    size_t offset;
    /** Bytes read so far across all segments. */
    size_t position;
    /** Set when a read asked for more bytes than remained. */
    int hit_end;
} gif_segment_reader;

/** giflib's InputFunc over a gif_segment_reader stored in GifFileType.UserData. */
int gif_read_segments(GifFileType *gif, GifByteType *buffer, int length);

/** Copies `message` into `error`, truncating to fit, and returns `status`. */
gif_shim_status gif_shim_fail(gif_shim_error *error, gif_shim_status status, const char *message);

/** The status and message for a giflib error code (truncation when the reader hit the end). */
gif_shim_status gif_shim_giflib_error(gif_shim_error *error, int code, int hit_end, const char *context);

#endif
