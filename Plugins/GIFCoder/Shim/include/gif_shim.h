/*
 * gif_shim.h — the C layer between the GIF plugin's Swift code and giflib 5.
 *
 * A GIF is scanned once with giflib (no LZW decoding) to find its frames; each frame is
 * decoded on demand by the shim's own LZW decoder from that frame's bytes, and composited
 * onto a canvas the way browsers do (disposal none / background / previous, transparency,
 * frames smaller than the canvas at an offset). Encoding uses giflib.
 */
#ifndef WEBIMAGE_GIF_SHIM_H
#define WEBIMAGE_GIF_SHIM_H

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

/** What the scan found. */
typedef struct gif_shim_info {
    /** Logical screen (canvas) size in pixels. */
    uint32_t width;
    uint32_t height;
    /** Frames whose data is complete. */
    uint32_t frame_count;
    /** NETSCAPE2.0 loop count (0 = forever); 1 when the extension is absent. */
    uint32_t loop_count;
    /** Non-zero when any frame has a transparent colour index. */
    int32_t has_transparency;
    /** Non-zero when the scan reached the trailer or the end of the data at a record boundary. */
    int32_t complete;
} gif_shim_info;

/** An opened GIF: the frame table plus, when a later frame needs it, the canvas of the last composited frame. */
typedef struct gif_shim_animation gif_shim_animation;

/**
 * Scans `bytes` (which must stay valid until gif_shim_close). With `allow_partial` a file
 * that ends inside a frame is opened with the frames complete so far; without it, that is
 * WEBIMAGE_STATUS_TRUNCATED_DATA. A canvas over `max_pixel_count` pixels (0 = no limit) is TOO_LARGE.
 */
webimage_status gif_shim_open(const uint8_t *_Nonnull bytes, size_t size, bool allow_partial, uint64_t max_pixel_count,
                              gif_shim_animation *_Nullable *_Nonnull animation, gif_shim_info *_Nonnull info,
                              webimage_error *_Nonnull error);

/** How long frame `index` shows, in milliseconds (delays of 10 ms or less count as 100 ms). */
uint32_t gif_shim_frame_duration(const gif_shim_animation *_Nonnull animation, uint32_t index);

/**
 * Writes the fully composited canvas of frame `index` as RGBA8 into `pixels` (canvas size).
 * A frame that covers the canvas with no transparent colour is drawn straight into `pixels`
 * (no canvas copy); the animation keeps its own canvas only for frames drawn over it.
 * A corrupt frame fails for itself only: later frames skip over it. After a failure the
 * content of `pixels` is unspecified.
 */
webimage_status gif_shim_decode_frame(gif_shim_animation *_Nonnull animation, uint32_t index, void *_Nonnull pixels,
                                      size_t stride, webimage_error *_Nonnull error);

void gif_shim_close(gif_shim_animation *_Nullable animation);

/** One frame to encode: canvas-sized RGBA8 pixels and a duration in milliseconds. */
typedef struct gif_shim_frame {
    const void *_Nonnull pixels;
    size_t stride;
    uint32_t duration_ms;
} gif_shim_frame;

/**
 * Encodes `count` frames of `width` × `height` as a GIF: each frame quantised to at most
 * 255 colours with giflib's median-cut quantiser, pixels with alpha below 128 written as
 * transparent. With more than one frame a NETSCAPE2.0 extension stores `loop_count`.
 * giflib writes the file straight into `output` (empty, with the allocator the bytes should
 * come from); on failure `output` is discarded.
 */
webimage_status gif_shim_encode(const gif_shim_frame *_Nonnull frames, uint32_t count, uint32_t width, uint32_t height,
                                uint32_t loop_count, webimage_output_buffer *_Nonnull output,
                                webimage_error *_Nonnull error);

/** A GIF encoded frame by frame: giflib writes each frame as it is added. */
typedef struct gif_shim_encoder gif_shim_encoder;

/**
 * Starts a GIF of `frame_count` frames of `width` × `height` (the loop extension, storing
 * `loop_count`, when there is more than one). The file grows in the encoder's own memory.
 */
webimage_status gif_shim_encoder_create(uint32_t width, uint32_t height, uint32_t frame_count, uint32_t loop_count,
                                        gif_shim_encoder *_Nullable *_Nonnull encoder, webimage_error *_Nonnull error);

/** Quantises and writes the next frame, as gif_shim_encode does each of its frames. */
webimage_status gif_shim_encoder_add(gif_shim_encoder *_Nonnull encoder, const gif_shim_frame *_Nonnull frame,
                                     webimage_error *_Nonnull error);

/**
 * Ends the file after the announced number of frames (INVALID_ARGUMENT before); `bytes`
 * and `size` are the file, valid until gif_shim_encoder_destroy.
 */
webimage_status gif_shim_encoder_finish(gif_shim_encoder *_Nonnull encoder, const uint8_t *_Nullable *_Nonnull bytes,
                                        size_t *_Nonnull size, webimage_error *_Nonnull error);

void gif_shim_encoder_destroy(gif_shim_encoder *_Nullable encoder);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif
