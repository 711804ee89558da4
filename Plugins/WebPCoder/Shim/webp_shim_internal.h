/* Shared by the WebP shim's files: error helpers and libwebp status mapping. */
#ifndef WEBIMAGE_WEBP_SHIM_INTERNAL_H
#define WEBIMAGE_WEBP_SHIM_INTERNAL_H

#include <webp/decode.h>
#include <webp/demux.h>

#include "webp_shim.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/** Bytes per RGBA8 pixel. */
#define WEBP_SHIM_CHANNELS 4

/** The shim status and message for a libwebp decoder status (`what` prefixes the message). */
webimage_status webp_shim_fail_decode(webimage_error *error, VP8StatusCode code, const char *what);

/**
 * The failure of one frame of a complete container: a frame whose data ends early is
 * corrupt, not truncated.
 */
webimage_status webp_shim_fail_frame(webimage_error *error, VP8StatusCode code);

/**
 * Opens a demuxer over a complete file: TRUNCATED when the bytes end before the last
 * chunk, CORRUPT when the container is invalid.
 */
webimage_status webp_shim_open_demux(const uint8_t *bytes, size_t size, WebPDemuxer **demux, webimage_error *error);

/** Decodes one frame's bitstream into `target` (frame size RGBA8, rows `stride` bytes apart). */
VP8StatusCode webp_shim_decode_frame(const WebPIterator *frame, uint8_t *target, size_t stride);

#pragma GCC visibility pop

#endif
