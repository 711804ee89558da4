/* Shared by the GIF shim's files: the frame table, the animation state, the segment reader. */
#ifndef WEBIMAGE_GIF_SHIM_INTERNAL_H
#define WEBIMAGE_GIF_SHIM_INTERNAL_H

#include <gif_lib.h>

#include "gif_shim.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

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
    /** Set once this frame was drawn without a failure. */
    int drawn_whole;
} gif_frame_record;

struct gif_shim_animation {
    const uint8_t *bytes;
    size_t size;
    /** End of the header, logical screen descriptor and global colour table. */
    size_t screen_end;
    gif_shim_info info;
    gif_frame_record *frames;
    /** RGBA8 canvas after frame `drawn` (-1: nothing drawn yet), unless `canvas_skipped`. */
    uint8_t *canvas;
    /** The canvas before the last drawn frame, for DISPOSE_PREVIOUS. */
    uint8_t *saved;
    int drawn;
    /**
     * Set when frame `drawn` went straight into the caller's pixels and the canvas was not
     * brought up to date, because the next frame replaces the whole canvas (a key frame).
     */
    int canvas_skipped;
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

/** The status and message for a giflib error code (truncation when the reader hit the end). */
webimage_status gif_shim_giflib_error(webimage_error *error, int code, int hit_end, const char *context);

/**
 * Decodes frame `index`'s pixels onto `target`, canvas-sized RGBA8 rows `stride` bytes apart
 * (the animation's canvas or the caller's pixels; no disposal). When the data fails, the rows
 * decoded before stay drawn (as giflib's row-by-row decoding left them). A frame no bigger
 * than the canvas is decoded whole; a bigger one row by row, so a large frame in a small
 * file cannot make a large allocation.
 */
webimage_status gif_shim_draw_frame(gif_shim_animation *animation, uint32_t index, uint8_t *target, size_t stride,
                                    webimage_error *error);

/** Number of LZW codes (codes are at most 12 bits). */
#define GIF_LZW_CODES 4096

/** Literal codes at most (8-bit minimum code size): gif_lzw_decode_all's buffer starts with them. */
#define GIF_LZW_LITERALS 256

/** Bytes gif_lzw_decode_all may write past the frame's pixels (a whole string plus a 16-byte chunk). */
#define GIF_LZW_SLACK (GIF_LZW_CODES + 16)

/** Zero bytes the LZW decoder may read past the end of its data (whole 64-bit loads). */
#define GIF_LZW_PADDING 8

typedef enum gif_lzw_status {
    GIF_LZW_OK = 0,
    /** A code neither in the table nor the one being defined. */
    GIF_LZW_BAD_CODE,
    /** The end code before the frame's last pixel. */
    GIF_LZW_END_TOO_SOON,
    /** The data sub-blocks end before the frame's last pixel. */
    GIF_LZW_OUT_OF_DATA,
} gif_lzw_status;

/** LZW decoder state for one frame's image data (about 44 KB: allocate it on the heap). */
typedef struct gif_lzw {
    /** The frame's data sub-blocks joined, followed by GIF_LZW_PADDING zero bytes. */
    const uint8_t *data;
    /** Next bit to read, and the number of bits of data. */
    uint64_t bit_position, bit_end;
    /** The LZW minimum code size (0-8): literals are below 1 << min_code_size. */
    int min_code_size;
    /** Current code width in bits, and the next code at which it grows (one bit per code read). */
    int code_bits, code_limit;
    /** The table entry the next code defines (GIF_LZW_CODES once the table is full). */
    int next_code;
    /** The code read before, or 0xFFFF just after a clear code. */
    uint32_t previous;
    /** Per code: prefix code in the low 16 bits, last byte in bits 16-23 (literals: the byte itself). */
    uint32_t links[GIF_LZW_CODES];
    /** Per code (gif_lzw_decode_all): where its string is in the buffer (literals: the byte itself). */
    uint32_t offsets[GIF_LZW_CODES];
    /** Per code: string length in bytes (1 for literals). */
    uint16_t lengths[GIF_LZW_CODES];
    /** Per code: first byte of its string. */
    uint8_t firsts[GIF_LZW_CODES];
    /** The rest of a string that did not fit in the last gif_lzw_decode call. */
    uint8_t pending[GIF_LZW_CODES];
    uint32_t pending_offset, pending_length;
} gif_lzw;

/** Starts decoding `size` bytes of joined sub-block data (followed by GIF_LZW_PADDING zero bytes). */
void gif_lzw_init(gif_lzw *lzw, int min_code_size, const uint8_t *data, size_t size);

/**
 * Writes the next `count` colour indices to `out`. Codes are read only while pixels are
 * missing, so data after a frame's last pixel is never looked at. On failure the indices
 * written so far are unspecified.
 */
gif_lzw_status gif_lzw_decode(gif_lzw *lzw, uint8_t *out, size_t count);

/**
 * Decodes a whole frame of `count` colour indices in one call, faster than gif_lzw_decode,
 * into `buffer + GIF_LZW_LITERALS`; `buffer` holds GIF_LZW_LITERALS + count + GIF_LZW_SLACK
 * bytes. `decoded` is set to the number of indices decoded before a failure (`count` when
 * the result is GIF_LZW_OK). Use on a freshly initialised decoder only.
 */
gif_lzw_status gif_lzw_decode_all(gif_lzw *lzw, uint8_t *buffer, size_t count, size_t *decoded);

/** Planes and indices for quantising one frame, each width × height bytes. */
typedef struct gif_shim_planes {
    GifByteType *red, *green, *blue, *indices;
} gif_shim_planes;

/** giflib's OutputFunc appending to the webimage_output_buffer in GifFileType.UserData. */
int gif_shim_write_to_memory(GifFileType *gif, const GifByteType *data, int length);

/** Writes the NETSCAPE2.0 loop extension; 0 on a giflib error. */
int gif_shim_put_loop_extension(GifFileType *gif, uint32_t loop_count);

/** Quantises `frame` into `planes` and `colors` and writes it (control block, descriptor, lines). */
webimage_status gif_shim_put_frame(GifFileType *gif, const gif_shim_frame *frame, uint32_t width, uint32_t height,
                                   gif_shim_planes planes, ColorMapObject *colors, webimage_error *error);

#pragma GCC visibility pop

#endif
