/* Whole-file decoding: still images (scaled by libwebp for thumbnails) and first frames. */
#include <string.h>

#include "webp_shim_internal.h"

/** Frame 1 of an animation on its transparent canvas: always a key frame, never blended. */
static webimage_status decode_first_frame(const uint8_t *bytes, size_t size, uint32_t width, uint32_t height,
                                          uint8_t *pixels, size_t stride, webimage_error *error) {
    WebPDemuxer *demux;
    webimage_status status = webp_shim_open_demux(bytes, size, &demux, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    if (WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH) != width || WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT) != height) {
        WebPDemuxDelete(demux);
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "an animation decodes at its canvas size");
    }
    WebPIterator frame;
    if (!WebPDemuxGetFrame(demux, 1, &frame)) {
        WebPDemuxDelete(demux);
        return webimage_fail(error, WEBIMAGE_STATUS_CORRUPT_DATA, "the animation has no frames");
    }
    int covers_canvas = frame.width == (int)width && frame.height == (int)height;
    if (!covers_canvas) {
        for (uint32_t y = 0; y < height; y++) memset(pixels + y * stride, 0, (size_t)width * WEBP_SHIM_CHANNELS);
    }
    uint8_t *origin = pixels + (size_t)frame.y_offset * stride + (size_t)frame.x_offset * WEBP_SHIM_CHANNELS;
    VP8StatusCode code = webp_shim_decode_frame(&frame, origin, stride);
    WebPDemuxReleaseIterator(&frame);
    WebPDemuxDelete(demux);
    if (code != VP8_STATUS_OK) {
        return webp_shim_fail_frame(error, code);
    }
    return WEBIMAGE_STATUS_OK;
}

webimage_status webp_shim_decode(const uint8_t *bytes, size_t size, uint32_t width, uint32_t height, void *pixels,
                                 size_t stride, webimage_error *error) {
    if (width == 0 || height == 0 || stride < (size_t)width * WEBP_SHIM_CHANNELS) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "invalid output size");
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "libwebp version mismatch");
    }
    VP8StatusCode code = WebPGetFeatures(bytes, size, &config.input);
    if (code != VP8_STATUS_OK) return webp_shim_fail_decode(error, code, "header: ");
    if (config.input.has_animation) return decode_first_frame(bytes, size, width, height, pixels, stride, error);
    if (width != (uint32_t)config.input.width || height != (uint32_t)config.input.height) {
        if (width > (uint32_t)config.input.width || height > (uint32_t)config.input.height) {
            return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "libwebp scales down only");
        }
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)width;
        config.options.scaled_height = (int)height;
    }
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * (height - 1) + (size_t)width * WEBP_SHIM_CHANNELS;
    code = WebPDecode(bytes, size, &config);
    if (code != VP8_STATUS_OK) return webp_shim_fail_decode(error, code, "");
    return WEBIMAGE_STATUS_OK;
}
