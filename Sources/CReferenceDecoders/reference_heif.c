/* reference_heif.c — libheif called directly (primary image to interleaved RGBA), for pixel parity and benchmarks. */
#include <libheif/heif.h>
#include <limits.h>
#include <string.h>

#include "reference_decoders.h"
#include "reference_error.h"

/**
 * True for AV1 files (main brand avif/avis, or a generic mif1/msf1 file listing avif); the
 * rest of the family is decoded as HEVC.
 */
static int is_av1(const uint8_t *bytes, size_t size) {
    int length = size > INT_MAX ? INT_MAX : (int)size;
    heif_brand2 main = heif_read_main_brand(bytes, length);
    if (main == heif_fourcc_to_brand("avif") || main == heif_fourcc_to_brand("avis")) return 1;
    if (main == heif_fourcc_to_brand("mif1") || main == heif_fourcc_to_brand("msf1")) {
        return heif_has_compatible_brand(bytes, length, "avif") == 1;
    }
    return 0;
}

static int fail_heif(struct heif_error error) {
    int code = error.subcode == heif_suberror_End_of_data ? REFERENCE_ERROR_TRUNCATED : REFERENCE_ERROR_DECODE;
    return reference_fail(code, "libheif", error.message ? error.message : "libheif failed");
}

/** Reads the boxes and gets the primary image; on failure nothing is left to free. */
static int open_primary(const uint8_t *bytes, size_t size, struct heif_context **context,
                        struct heif_image_handle **handle) {
    if (bytes == NULL || size == 0) return reference_fail(REFERENCE_ERROR_ARGUMENT, "libheif", "no input bytes");
    if (size < 12 || memcmp(bytes + 4, "ftyp", 4) != 0) {
        return reference_fail(REFERENCE_ERROR_NOT_THIS_FORMAT, "libheif", "no 'ftyp' box");
    }
    *context = heif_context_alloc();
    if (*context == NULL) return reference_fail(REFERENCE_ERROR_DECODE, "libheif", "heif_context_alloc failed");
    struct heif_error error = heif_context_read_from_memory_without_copy(*context, bytes, size, NULL);
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(*context, handle);
    if (error.code != heif_error_Ok) {
        int status = fail_heif(error);
        heif_context_free(*context);
        *context = NULL;
        return status;
    }
    return REFERENCE_OK;
}

int reference_heif_probe(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height) {
    struct heif_context *context = NULL;
    struct heif_image_handle *handle = NULL;
    int status = open_primary(bytes, size, &context, &handle);
    if (status != REFERENCE_OK) return status;
    int shown_width = heif_image_handle_get_width(handle);
    int shown_height = heif_image_handle_get_height(handle);
    heif_image_handle_release(handle);
    heif_context_free(context);
    if (shown_width <= 0 || shown_height <= 0) {
        return reference_fail(REFERENCE_ERROR_DECODE, "libheif", "the primary image has no size");
    }
    *width = (uint32_t)shown_width;
    *height = (uint32_t)shown_height;
    return REFERENCE_OK;
}

/** Decodes the primary image with libheif's own HEVC decoder and copies its rows into `out`. */
static int decode_primary(struct heif_image_handle *handle, int av1, void *out, size_t out_size) {
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options == NULL) return reference_fail(REFERENCE_ERROR_DECODE, "libheif", "out of memory");
    /* libheif's built-in libde265 plugin, even when a process has registered a faster one. */
    if (!av1) options->decoder_id = "libde265";
    struct heif_image *image = NULL;
    struct heif_error error =
        heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) return fail_heif(error);
    int width = heif_image_get_width(image, heif_channel_interleaved);
    int height = heif_image_get_height(image, heif_channel_interleaved);
    int stride = 0;
    const uint8_t *pixels = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int status = REFERENCE_OK;
    if (pixels == NULL || width <= 0 || height <= 0) {
        status = reference_fail(REFERENCE_ERROR_DECODE, "libheif", "libheif returned no interleaved plane");
    } else if ((size_t)width * (size_t)height * 4 > out_size) {
        status = reference_fail(REFERENCE_ERROR_BUFFER_TOO_SMALL, "libheif", "the output buffer is too small");
    } else {
        size_t row_bytes = (size_t)width * 4;
        for (int y = 0; y < height; y++) {
            memcpy((uint8_t *)out + (size_t)y * row_bytes, pixels + (size_t)y * (size_t)stride, row_bytes);
        }
    }
    heif_image_release(image);
    return status;
}

int reference_heif_decode(const uint8_t *bytes, size_t size, void *out, size_t out_size) {
    if (out == NULL) return reference_fail(REFERENCE_ERROR_ARGUMENT, "libheif", "no output buffer");
    struct heif_context *context = NULL;
    struct heif_image_handle *handle = NULL;
    int status = open_primary(bytes, size, &context, &handle);
    if (status != REFERENCE_OK) return status;
    status = decode_primary(handle, is_av1(bytes, size), out, out_size);
    heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}
