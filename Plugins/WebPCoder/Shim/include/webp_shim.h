/*
 * webp_shim.h — the small C layer between the WebP plugin's Swift code and libwebp
 * (decode, demux, encode, mux).
 *
 * Every function returns a webimage_status and, on failure, writes a reason into `error`.
 * Pixels are RGBA8 with straight alpha. Decoders write into memory the caller owns; the
 * caller checks the pixel limit against webp_shim_header before it allocates.
 */
#ifndef WEBIMAGE_WEBP_SHIM_H
#define WEBIMAGE_WEBP_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "webimage_output_buffer.h"
#include "webimage_plugin.h"

/* Every function declared here is hidden: the plugin library exports only
 * webimage_plugin_entry, so no other library or executable binds to these. */
#pragma GCC visibility push(hidden)

#ifdef __cplusplus
extern "C" {
#endif

/** What the RIFF header (and, for animations, the demuxer) says. */
typedef struct webp_shim_header {
    /** Canvas size in pixels (1...16383 each). */
    uint32_t width;
    uint32_t height;
    /** Non-zero when the image (any frame) may have alpha. */
    int32_t has_alpha;
    /** Non-zero for animated files (ANIM / ANMF chunks). */
    int32_t animated;
    /** Non-zero when the (first) image is VP8L lossless. */
    int32_t lossless;
    /** 1 for still images; for animations the frames found in the bytes given. */
    uint32_t frame_count;
    /** Animations: how often to play, 0 = forever. */
    uint32_t loop_count;
    /**
     * Non-zero when libwebp holds a full-size plane while decoding even a scaled image
     * (lossless ARGB, the alpha plane, an animation canvas): then the pixel limit applies
     * to the full size, not only to the output.
     */
    int32_t needs_full_size_memory;
} webp_shim_header;

/** Non-zero when `bytes` start with RIFF....WEBP. */
bool webp_shim_is_webp(const uint8_t *_Nullable bytes, size_t size);

/**
 * Reads the header; with `count_frames` an animation's frames and loop count are counted
 * by the demuxer (over the bytes given, which may be a prefix of the file).
 */
webimage_status webp_shim_read_header(const uint8_t *_Nullable bytes, size_t size, bool count_frames,
                                      webp_shim_header *_Nonnull header, webimage_error *_Nonnull error);

/**
 * The output size of a still image decoded for a `box_width` × `box_height` thumbnail box:
 * the box clamped to the full size (libwebp's rescaler scales each axis on its own), or
 * the full size without a box (0 × 0) and for animations.
 */
void webp_shim_output_size(const webp_shim_header *_Nonnull header, uint32_t box_width, uint32_t box_height,
                           uint32_t *_Nonnull width, uint32_t *_Nonnull height);

/**
 * Decodes a whole file into `pixels` (`width` × `height` RGBA8, rows `stride` bytes apart):
 * a still image scaled by libwebp when the size differs from the header's, or the first
 * frame of an animation composited on its transparent canvas (size must be the canvas).
 */
webimage_status webp_shim_decode(const uint8_t *_Nonnull bytes, size_t size, uint32_t width, uint32_t height,
                                 void *_Nonnull pixels, size_t stride, webimage_error *_Nonnull error);

/** An open animation: a copy of the file, its demuxer and the canvas after the last frame. */
typedef struct webp_shim_animation webp_shim_animation;

/**
 * Opens an animation (a still image opens as one frame). Canvases above `max_pixel_count`
 * (0 = no limit) fail with TOO_LARGE before anything is allocated for pixels.
 */
webimage_status webp_shim_animation_open(const uint8_t *_Nonnull bytes, size_t size, uint64_t max_pixel_count,
                                         webp_shim_animation *_Nullable *_Nonnull animation,
                                         webp_shim_header *_Nonnull header, webimage_error *_Nonnull error);

/** Duration of frame `index` (0-based) in milliseconds; 0 for an index out of range. */
uint32_t webp_shim_animation_duration(const webp_shim_animation *_Nonnull animation, uint32_t index);

/**
 * Writes the composited canvas of frame `index` (0-based) into `pixels` (canvas size,
 * rows `stride` bytes apart), compositing exactly as libwebp's WebPAnimDecoder does.
 * Frames are decoded forward from the last one; an earlier index starts again from the
 * first frame. A frame that fails to decode fails alone: later frames are composited as
 * if it were absent.
 */
webimage_status webp_shim_animation_render(webp_shim_animation *_Nonnull animation, uint32_t index,
                                           void *_Nonnull pixels, size_t stride, webimage_error *_Nonnull error);

void webp_shim_animation_close(webp_shim_animation *_Nullable animation);

/** An incremental decode on libwebp's WebPIDecoder. */
typedef struct webp_shim_incremental webp_shim_incremental;

/**
 * Starts an incremental decode; images above `max_pixel_count` (0 = none), or whose canvas
 * and the copy handed out need more than `max_byte_count` bytes (0 = none), fail with
 * TOO_LARGE once the header has arrived, before the canvas is allocated.
 */
webp_shim_incremental *_Nullable webp_shim_incremental_create(uint64_t max_pixel_count, uint64_t max_byte_count);

/**
 * Feeds the next bytes. `is_final` with an unfinished image gives TRUNCATED. Animations
 * are collected whole and show their first frame once the last bytes arrive.
 */
webimage_status webp_shim_incremental_append(webp_shim_incremental *_Nonnull decoder, const uint8_t *_Nullable bytes,
                                             size_t size, bool is_final, webimage_error *_Nonnull error);

/** The RGBA8 canvas so far: `pixels` is NULL until a row can be shown. */
typedef struct webp_shim_canvas {
    const void *_Nullable pixels;
    size_t stride;
    webp_shim_header header;
    /** Rows decoded so far (from the top); the rest of the canvas is transparent black. */
    uint32_t rows;
    /** Non-zero once the whole image has been decoded. */
    int32_t complete;
} webp_shim_canvas;

void webp_shim_incremental_canvas(const webp_shim_incremental *_Nonnull decoder, webp_shim_canvas *_Nonnull canvas);

void webp_shim_incremental_destroy(webp_shim_incremental *_Nullable decoder);

/** How to encode: `quality` 0...100 (lossy quality, or lossless effort), `lossless` non-zero for VP8L. */
typedef struct webp_shim_encoding {
    float quality;
    int32_t lossless;
} webp_shim_encoding;

/**
 * Encodes RGBA pixels (8 or 16 bits, native endian; 16 bits are rounded to 8) as a still
 * WebP. Lossless keeps every pixel exactly, including colour under transparent pixels.
 * libwebp writes the file straight into `output` (empty, with the allocator the bytes should
 * come from) through a custom writer; on failure `output` is discarded.
 */
webimage_status webp_shim_encode(const void *_Nonnull pixels, uint32_t width, uint32_t height, size_t stride,
                                 bool sixteen_bit, webp_shim_encoding encoding, webimage_output_buffer *_Nonnull output,
                                 webimage_error *_Nonnull error);

/** An animation from webp_shim_encode_animation in libwebp's own memory; free `bytes` with webp_shim_free. */
typedef struct webp_shim_output {
    uint8_t *_Nullable bytes;
    size_t size;
} webp_shim_output;

/** One frame to encode. */
typedef struct webp_shim_frame {
    const void *_Nonnull pixels;
    size_t stride;
    int32_t sixteen_bit;
    /** How long the frame shows, in milliseconds. */
    uint32_t duration_ms;
} webp_shim_frame;

/** Encodes `count` frames of `width` × `height` as an animation playing `loop_count` times (0 = forever). */
webimage_status webp_shim_encode_animation(const webp_shim_frame *_Nonnull frames, uint32_t count, uint32_t width,
                                           uint32_t height, uint32_t loop_count, webp_shim_encoding encoding,
                                           webp_shim_output *_Nonnull output, webimage_error *_Nonnull error);

/**
 * An animation encoded frame by frame on libwebp's WebPAnimEncoder, which keeps only what it
 * needs to choose each frame's encoding (the previous canvases), never every frame.
 */
typedef struct webp_shim_animation_encoder webp_shim_animation_encoder;

/** Starts an animation of `frame_count` frames of `width` × `height` playing `loop_count` times. */
webimage_status webp_shim_animation_encoder_create(uint32_t width, uint32_t height, uint32_t frame_count,
                                                   uint32_t loop_count, webp_shim_encoding encoding,
                                                   webp_shim_animation_encoder *_Nullable *_Nonnull encoder,
                                                   webimage_error *_Nonnull error);

/** Encodes the next frame (canvas-sized pixels). */
webimage_status webp_shim_animation_encoder_add(webp_shim_animation_encoder *_Nonnull encoder,
                                                const webp_shim_frame *_Nonnull frame, webimage_error *_Nonnull error);

/** Assembles the file after the announced frames, in libwebp's memory (free with webp_shim_free). */
webimage_status webp_shim_animation_encoder_finish(webp_shim_animation_encoder *_Nonnull encoder,
                                                   webp_shim_output *_Nonnull output, webimage_error *_Nonnull error);

void webp_shim_animation_encoder_destroy(webp_shim_animation_encoder *_Nullable encoder);

void webp_shim_free(void *_Nullable pointer);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif
