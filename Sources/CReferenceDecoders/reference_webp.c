/* reference_webp.c — libwebp's own decoders called directly, for pixel parity and benchmarks. */
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

#include "reference_decoders.h"
#include "reference_error.h"

int reference_webp_probe(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height, uint32_t *frames) {
    if (bytes == NULL || size == 0) return reference_fail(REFERENCE_ERROR_ARGUMENT, "libwebp", "no input bytes");
    WebPData data = {bytes, size};
    WebPDemuxer *demuxer = WebPDemux(&data);
    if (demuxer == NULL) return reference_fail(REFERENCE_ERROR_NOT_THIS_FORMAT, "libwebp", "WebPDemux failed");
    *width = WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH);
    *height = WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT);
    *frames = WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT);
    WebPDemuxDelete(demuxer);
    return REFERENCE_OK;
}

int reference_webp_decode(const uint8_t *bytes, size_t size, void *out, size_t out_size) {
    int width = 0, height = 0;
    if (bytes == NULL || out == NULL || !WebPGetInfo(bytes, size, &width, &height)) {
        return reference_fail(REFERENCE_ERROR_DECODE, "libwebp", "WebPGetInfo failed");
    }
    if ((size_t)width * height * 4 > out_size) {
        return reference_fail(REFERENCE_ERROR_BUFFER_TOO_SMALL, "libwebp", "the output buffer is too small");
    }
    if (WebPDecodeRGBAInto(bytes, size, out, out_size, width * 4) == NULL) {
        return reference_fail(REFERENCE_ERROR_DECODE, "libwebp", "WebPDecodeRGBAInto failed");
    }
    return REFERENCE_OK;
}

int reference_webp_animation_frame(const uint8_t *bytes, size_t size, uint32_t index, void *out, size_t out_size,
                                   int32_t *timestamp) {
    WebPAnimDecoderOptions options;
    if (bytes == NULL || out == NULL || !WebPAnimDecoderOptionsInit(&options)) {
        return reference_fail(REFERENCE_ERROR_ARGUMENT, "libwebp", "no input or no output buffer");
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData data = {bytes, size};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&data, &options);
    if (decoder == NULL) return reference_fail(REFERENCE_ERROR_DECODE, "libwebp", "WebPAnimDecoderNew failed");
    WebPAnimInfo info;
    WebPAnimDecoderGetInfo(decoder, &info);
    size_t canvas_bytes = (size_t)info.canvas_width * info.canvas_height * 4;
    int status = REFERENCE_OK;
    uint8_t *canvas = NULL;
    int ends_at = 0;
    if (canvas_bytes > out_size) {
        status = reference_fail(REFERENCE_ERROR_BUFFER_TOO_SMALL, "libwebp", "the output buffer is too small");
    } else {
        for (uint32_t i = 0; i <= index && status == REFERENCE_OK; i++) {
            if (!WebPAnimDecoderGetNext(decoder, &canvas, &ends_at)) {
                status = reference_fail(REFERENCE_ERROR_DECODE, "libwebp", "WebPAnimDecoderGetNext failed");
            }
        }
        if (status == REFERENCE_OK) {
            memcpy(out, canvas, canvas_bytes);
            if (timestamp != NULL) *timestamp = ends_at;
        }
    }
    WebPAnimDecoderDelete(decoder);
    return status;
}
