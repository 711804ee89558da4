/* Errors, the RIFF signature, header reading and output sizes. */
#include <string.h>

#include "webp_shim_internal.h"

static const char *describe(VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY:
        return "out of memory";
    case VP8_STATUS_INVALID_PARAM:
        return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR:
        return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE:
        return "unsupported feature";
    case VP8_STATUS_SUSPENDED:
        return "suspended";
    case VP8_STATUS_USER_ABORT:
        return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA:
        return "the data ends before the image is complete";
    default:
        return "unknown error";
    }
}

webimage_status webp_shim_fail_decode(webimage_error *error, VP8StatusCode code, const char *what) {
    webimage_status status;
    switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY:
        status = WEBIMAGE_STATUS_OUT_OF_MEMORY;
        break;
    case VP8_STATUS_NOT_ENOUGH_DATA:
    case VP8_STATUS_SUSPENDED:
        status = WEBIMAGE_STATUS_TRUNCATED_DATA;
        break;
    default:
        status = WEBIMAGE_STATUS_CORRUPT_DATA;
        break;
    }
    return webimage_failf(error, status, "%s%s", what, describe(code));
}

webimage_status webp_shim_fail_frame(webimage_error *error, VP8StatusCode code) {
    if (code == VP8_STATUS_NOT_ENOUGH_DATA || code == VP8_STATUS_SUSPENDED) code = VP8_STATUS_BITSTREAM_ERROR;
    return webp_shim_fail_decode(error, code, "");
}

static const uint8_t riff_tag[4] = {'R', 'I', 'F', 'F'};
static const uint8_t webp_tag[4] = {'W', 'E', 'B', 'P'};

bool webp_shim_is_webp(const uint8_t *bytes, size_t size) {
    return bytes != NULL && size >= 12 && memcmp(bytes, riff_tag, 4) == 0 && memcmp(bytes + 8, webp_tag, 4) == 0;
}

/** Non-zero when `bytes` (shorter than 12) could still become RIFF....WEBP. */
static int could_be_webp(const uint8_t *bytes, size_t size) {
    for (size_t i = 0; i < size && i < 12; i++) {
        if (i < 4 && bytes[i] != riff_tag[i]) return 0;
        if (i >= 8 && bytes[i] != webp_tag[i - 8]) return 0;
    }
    return 1;
}

webimage_status webp_shim_read_header(const uint8_t *bytes, size_t size, bool count_frames, webp_shim_header *header,
                                      webimage_error *error) {
    memset(header, 0, sizeof *header);
    if (bytes == NULL || size == 0) return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the data is empty");
    if (!webp_shim_is_webp(bytes, size)) {
        if (size < 12 && could_be_webp(bytes, size)) {
            return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends inside the RIFF header");
        }
        return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "not a WebP file (no RIFF WEBP header)");
    }
    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(bytes, size, &features);
    if (code != VP8_STATUS_OK) return webp_shim_fail_decode(error, code, "header: ");
    header->width = (uint32_t)features.width;
    header->height = (uint32_t)features.height;
    header->has_alpha = features.has_alpha;
    header->animated = features.has_animation;
    header->lossless = features.format == 2;
    header->frame_count = 1;
    header->needs_full_size_memory = features.has_alpha || features.has_animation || features.format != 1;
    if (count_frames && features.has_animation) {
        WebPData data = {bytes, size};
        WebPDemuxState state;
        WebPDemuxer *demux = WebPDemuxPartial(&data, &state);
        if (demux == NULL) {
            if (state == WEBP_DEMUX_PARSE_ERROR)
                return webimage_fail(error, WEBIMAGE_STATUS_CORRUPT_DATA, "invalid container");
            return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends inside the container header");
        }
        header->frame_count = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
        header->loop_count = WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT);
        WebPDemuxDelete(demux);
    }
    return WEBIMAGE_STATUS_OK;
}

void webp_shim_output_size(const webp_shim_header *header, uint32_t box_width, uint32_t box_height, uint32_t *width,
                           uint32_t *height) {
    *width = header->width;
    *height = header->height;
    if (header->animated || box_width == 0 || box_height == 0) return;
    if (box_width >= header->width && box_height >= header->height) return;
    if (box_width < header->width) *width = box_width;
    if (box_height < header->height) *height = box_height;
}

webimage_status webp_shim_open_demux(const uint8_t *bytes, size_t size, WebPDemuxer **demux, webimage_error *error) {
    WebPData data = {bytes, size};
    WebPDemuxState state;
    *demux = WebPDemuxPartial(&data, &state);
    if (*demux != NULL && state == WEBP_DEMUX_DONE) return WEBIMAGE_STATUS_OK;
    WebPDemuxDelete(*demux);
    *demux = NULL;
    if (state == WEBP_DEMUX_PARSE_ERROR) return webimage_fail(error, WEBIMAGE_STATUS_CORRUPT_DATA, "invalid container");
    return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the data ends before the last frame");
}

VP8StatusCode webp_shim_decode_frame(const WebPIterator *frame, uint8_t *target, size_t stride) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return VP8_STATUS_INVALID_PARAM;
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = target;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * (size_t)(frame->height - 1) + (size_t)frame->width * WEBP_SHIM_CHANNELS;
    return WebPDecode(frame->fragment.bytes, frame->fragment.size, &config);
}
