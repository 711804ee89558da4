#include "heif_shim_internal.h"

#include <stdlib.h>
#include <string.h>

/** Bits per sample written for 16-bit input (what heif-enc uses for 16-bit PNGs). */
enum { deep_bits = 10 };

/** libheif's writer callback: appends to the webimage_output_buffer in `user`. */
static struct heif_error write_bytes(struct heif_context *context, const void *data, size_t size, void *user) {
    (void)context;
    if (!webimage_output_buffer_append(user, data, size)) {
        return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    }
    return (struct heif_error){heif_error_Ok, heif_suberror_Unspecified, "Success"};
}

/** Fills libheif's interleaved plane from host pixels (8-bit copy, or 16-bit scaled to deep_bits). */
static void fill_plane(const void *pixels, uint32_t width, uint32_t height, size_t stride, int sixteen_bit,
                       int channels, uint8_t *plane, int plane_stride) {
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = (const uint8_t *)pixels + y * stride;
        uint8_t *target = plane + (size_t)y * (size_t)plane_stride;
        for (uint32_t x = 0; x < width; x++) {
            for (int c = 0; c < channels; c++) {
                if (sixteen_bit) {
                    uint16_t value = ((const uint16_t *)(const void *)row)[x * 4 + c];
                    uint16_t scaled = (uint16_t)((value * ((1u << deep_bits) - 1) + 32767u) / 65535u);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                    target[(x * channels + c) * 2] = (uint8_t)scaled;
                    target[(x * channels + c) * 2 + 1] = (uint8_t)(scaled >> 8);
#else
                    target[(x * channels + c) * 2] = (uint8_t)(scaled >> 8);
                    target[(x * channels + c) * 2 + 1] = (uint8_t)scaled;
#endif
                } else {
                    target[x * channels + c] = row[x * 4 + c];
                }
            }
        }
    }
}

static webimage_status make_image(const void *pixels, uint32_t width, uint32_t height, size_t stride, int sixteen_bit,
                                  heif_shim_encode_options options, struct heif_image **image, webimage_error *error) {
    int channels = options.keep_alpha ? 4 : 3;
    enum heif_chroma chroma;
    if (sixteen_bit) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        chroma = options.keep_alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE;
#else
        chroma = options.keep_alpha ? heif_chroma_interleaved_RRGGBBAA_BE : heif_chroma_interleaved_RRGGBB_BE;
#endif
    } else {
        chroma = options.keep_alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB;
    }
    struct heif_error failure = heif_image_create((int)width, (int)height, heif_colorspace_RGB, chroma, image);
    if (failure.code) return heif_shim_fail_heif(error, failure, "cannot create the image");
    failure =
        heif_image_add_plane(*image, heif_channel_interleaved, (int)width, (int)height, sixteen_bit ? deep_bits : 8);
    if (failure.code) return heif_shim_fail_heif(error, failure, "cannot allocate the image");
    int plane_stride = 0;
    uint8_t *plane = heif_image_get_plane(*image, heif_channel_interleaved, &plane_stride);
    fill_plane(pixels, width, height, stride, sixteen_bit, channels, plane, plane_stride);
    if (options.lossless) {
        struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
        if (!nclx) return webimage_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        heif_nclx_color_profile_set_matrix_coefficients(nclx, heif_matrix_coefficients_RGB_GBR);
        nclx->full_range_flag = 1;
        heif_image_set_nclx_color_profile(*image, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    return WEBIMAGE_STATUS_OK;
}

static webimage_status configure(struct heif_encoder *encoder, heif_shim_encode_options options,
                                 webimage_error *error) {
    struct heif_error failure = options.lossless ? heif_encoder_set_lossless(encoder, 1)
                                                 : heif_encoder_set_lossy_quality(encoder, options.quality);
    if (failure.code) return heif_shim_fail_heif(error, failure, "the encoder refused the quality");
    if (options.lossless) {
        failure = heif_encoder_set_parameter_string(encoder, "chroma", "444");
        if (failure.code) return heif_shim_fail_heif(error, failure, "the encoder refused 4:4:4");
    }
    heif_encoder_set_logging_level(encoder, 0);
    return WEBIMAGE_STATUS_OK;
}

webimage_status heif_shim_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, bool sixteen_bit,
                                 heif_shim_encode_options options, webimage_output_buffer *output,
                                 webimage_error *error) {
    heif_shim_initialize();
    if (width == 0 || height == 0 || width > HEIF_SHIM_HEVC_MAX_SIDE || height > HEIF_SHIM_HEVC_MAX_SIDE) {
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "cannot encode a %u×%u image", width, height);
    }
    if (options.quality < 0 || options.quality > 100) {
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "quality %d is outside 0...100",
                              options.quality);
    }
    struct heif_context *context = heif_context_alloc();
    if (!context) return webimage_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "libheif could not allocate a context");
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    webimage_status status = WEBIMAGE_STATUS_OK;
    struct heif_error failure = heif_context_get_encoder_for_format(
        context, options.av1 ? heif_compression_AV1 : heif_compression_HEVC, &encoder);
    if (failure.code) {
        const char *missing = options.av1 ? "no AV1 encoder" : "no HEVC encoder";
        status = heif_shim_fail_heif(error, failure, missing);
        if (status == WEBIMAGE_STATUS_INTERNAL_ERROR || status == WEBIMAGE_STATUS_CORRUPT_DATA) {
            status = heif_shim_fail_heif_as(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, failure, missing);
        }
        goto done;
    }
    status = configure(encoder, options, error);
    if (status != WEBIMAGE_STATUS_OK) goto done;
    status = make_image(pixels, width, height, stride, sixteen_bit, options, &image, error);
    if (status != WEBIMAGE_STATUS_OK) goto done;
    struct heif_encoding_options *encoding = heif_encoding_options_alloc();
    if (!encoding) {
        status = webimage_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    encoding->save_alpha_channel = (uint8_t)(options.keep_alpha != 0);
    failure = heif_context_encode_image(context, image, encoder, encoding, NULL);
    heif_encoding_options_free(encoding);
    if (failure.code) {
        status = heif_shim_fail_heif(error, failure, "cannot encode the image");
        goto done;
    }
    struct heif_writer writer = {.writer_api_version = 1, .write = write_bytes};
    failure = heif_context_write(context, &writer, output);
    if (failure.code) status = heif_shim_fail_heif(error, failure, "cannot write the file");
done:
    if (status != WEBIMAGE_STATUS_OK) webimage_output_buffer_discard(output);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(context);
    return status;
}
