/* Encoding: still images with WebPEncode, animations with WebPAnimEncoder. */
#include <stdlib.h>
#include <string.h>

#include <webp/encode.h>
#include <webp/mux.h>

#include "webp_shim_internal.h"

static webimage_status fail_encode(webimage_error *error, WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY:
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "libwebp's encoder ran out of memory");
    case VP8_ENC_ERROR_BAD_DIMENSION:
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "WebP images are at most 16383 x 16383 pixels");
    case VP8_ENC_ERROR_FILE_TOO_BIG:
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "the encoded file would exceed 4 GiB");
    default:
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "libwebp's encoder rejected the input");
    }
}

/** libwebp's configuration for `encoding`; lossless keeps colour under transparent pixels. */
static int configure(WebPConfig *config, webp_shim_encoding encoding) {
    if (!WebPConfigInit(config)) return 0;
    float quality = encoding.quality < 0 ? 0 : encoding.quality > 100 ? 100 : encoding.quality;
    config->quality = quality;
    if (encoding.lossless) {
        config->lossless = 1;
        config->exact = 1;
    }
    return WebPValidateConfig(config);
}

/** Fills `picture` with 8-bit RGBA; 16-bit samples are rounded to 8 bits. */
static int import(WebPPicture *picture, const void *pixels, uint32_t width, uint32_t height, size_t stride,
                  int sixteen_bit, int lossless) {
    if (!WebPPictureInit(picture)) return 0;
    picture->width = (int)width;
    picture->height = (int)height;
    picture->use_argb = lossless;
    if (!sixteen_bit) return WebPPictureImportRGBA(picture, pixels, (int)stride);
    size_t row_bytes = (size_t)width * WEBP_SHIM_CHANNELS;
    uint8_t *narrow = malloc(row_bytes * height);
    if (narrow == NULL) return 0;
    for (uint32_t y = 0; y < height; y++) {
        const uint16_t *source = (const uint16_t *)((const uint8_t *)pixels + y * stride);
        uint8_t *target = narrow + y * row_bytes;
        for (size_t i = 0; i < row_bytes; i++) target[i] = (uint8_t)((source[i] * 255u + 32767u) / 65535u);
    }
    int ok = WebPPictureImportRGBA(picture, narrow, (int)row_bytes);
    free(narrow);
    return ok;
}

/** libwebp's writer callback: appends to the webimage_output_buffer in `picture->custom_ptr`. */
static int write_to_output(const uint8_t *data, size_t size, const WebPPicture *picture) {
    return webimage_output_buffer_append(picture->custom_ptr, data, size);
}

webimage_status webp_shim_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, bool sixteen_bit,
                                 webp_shim_encoding encoding, webimage_output_buffer *output, webimage_error *error) {
    if (width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        return fail_encode(error, VP8_ENC_ERROR_BAD_DIMENSION);
    }
    WebPConfig config;
    if (!configure(&config, encoding))
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "invalid settings");
    WebPPicture picture;
    if (!import(&picture, pixels, width, height, stride, sixteen_bit, encoding.lossless)) {
        WebPPictureFree(&picture);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "could not import the pixels");
    }
    picture.writer = write_to_output;
    picture.custom_ptr = output;
    int ok = WebPEncode(&config, &picture);
    WebPEncodingError code = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        webimage_output_buffer_discard(output);
        return fail_encode(error, code);
    }
    return WEBIMAGE_STATUS_OK;
}

struct webp_shim_animation_encoder {
    WebPAnimEncoder *encoder;
    WebPConfig config;
    webp_shim_encoding encoding;
    uint32_t width, height, expected, added;
    uint64_t timestamp;
};

webimage_status webp_shim_animation_encoder_create(uint32_t width, uint32_t height, uint32_t frame_count,
                                                   uint32_t loop_count, webp_shim_encoding encoding,
                                                   webp_shim_animation_encoder **out, webimage_error *error) {
    *out = NULL;
    if (frame_count == 0) return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "an animation needs frames");
    if (width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        return fail_encode(error, VP8_ENC_ERROR_BAD_DIMENSION);
    }
    if (loop_count > 65535) return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "loop counts go up to 65535");
    webp_shim_animation_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    if (!configure(&encoder->config, encoding)) {
        free(encoder);
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "invalid settings");
    }
    WebPAnimEncoderOptions options;
    if (!WebPAnimEncoderOptionsInit(&options)) {
        free(encoder);
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "libwebp version mismatch");
    }
    options.anim_params.loop_count = (int)loop_count;
    encoder->encoder = WebPAnimEncoderNew((int)width, (int)height, &options);
    if (encoder->encoder == NULL) {
        free(encoder);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "could not start the encoder");
    }
    encoder->encoding = encoding;
    encoder->width = width;
    encoder->height = height;
    encoder->expected = frame_count;
    *out = encoder;
    return WEBIMAGE_STATUS_OK;
}

webimage_status webp_shim_animation_encoder_add(webp_shim_animation_encoder *encoder, const webp_shim_frame *frame,
                                                webimage_error *error) {
    if (encoder->added >= encoder->expected) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "more frames than announced");
    }
    WebPPicture picture;
    webimage_status status = WEBIMAGE_STATUS_OK;
    if (!import(&picture, frame->pixels, encoder->width, encoder->height, frame->stride, frame->sixteen_bit,
                encoder->encoding.lossless)) {
        status = webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "could not import the pixels");
    } else if (encoder->timestamp > INT32_MAX) {
        status = webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "the animation is too long");
    } else if (!WebPAnimEncoderAdd(encoder->encoder, &picture, (int)encoder->timestamp, &encoder->config)) {
        status = fail_encode(error, picture.error_code);
    }
    WebPPictureFree(&picture);
    if (status != WEBIMAGE_STATUS_OK) return status;
    encoder->timestamp += frame->duration_ms;
    encoder->added += 1;
    return WEBIMAGE_STATUS_OK;
}

webimage_status webp_shim_animation_encoder_finish(webp_shim_animation_encoder *encoder, webp_shim_output *output,
                                                   webimage_error *error) {
    memset(output, 0, sizeof *output);
    if (encoder->added != encoder->expected) {
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "%u of %u frames were added", encoder->added,
                              encoder->expected);
    }
    if (encoder->timestamp > INT32_MAX) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "the animation is too long");
    }
    WebPData data;
    WebPDataInit(&data);
    if (!WebPAnimEncoderAdd(encoder->encoder, NULL, (int)encoder->timestamp, NULL) ||
        !WebPAnimEncoderAssemble(encoder->encoder, &data)) {
        WebPDataClear(&data);
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, WebPAnimEncoderGetError(encoder->encoder));
    }
    output->bytes = (uint8_t *)data.bytes;
    output->size = data.size;
    return WEBIMAGE_STATUS_OK;
}

void webp_shim_animation_encoder_destroy(webp_shim_animation_encoder *encoder) {
    if (encoder == NULL) return;
    WebPAnimEncoderDelete(encoder->encoder);
    free(encoder);
}

webimage_status webp_shim_encode_animation(const webp_shim_frame *frames, uint32_t count, uint32_t width,
                                           uint32_t height, uint32_t loop_count, webp_shim_encoding encoding,
                                           webp_shim_output *output, webimage_error *error) {
    memset(output, 0, sizeof *output);
    webp_shim_animation_encoder *encoder = NULL;
    webimage_status status =
        webp_shim_animation_encoder_create(width, height, count, loop_count, encoding, &encoder, error);
    for (uint32_t i = 0; i < count && status == WEBIMAGE_STATUS_OK; i++) {
        status = webp_shim_animation_encoder_add(encoder, &frames[i], error);
    }
    if (status == WEBIMAGE_STATUS_OK) status = webp_shim_animation_encoder_finish(encoder, output, error);
    webp_shim_animation_encoder_destroy(encoder);
    return status;
}

void webp_shim_free(void *pointer) { WebPFree(pointer); }
