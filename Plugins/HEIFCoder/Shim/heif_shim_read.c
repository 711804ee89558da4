#include "heif_shim_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct heif_shim_reader {
    const uint8_t *bytes;
    size_t size;
    struct heif_context *context;
    struct heif_image_handle *primary;
    /** The image heif_shim_decode decodes: the primary or one of its thumbnails (owned). */
    struct heif_image_handle *selected;
};

struct heif_shim_decoded {
    struct heif_image *image;
    uint32_t width;
    uint32_t height;
    /** Bits per sample of the output (8, or the source's 10 / 12). */
    int bits;
    int premultiplied;
    /** Non-zero: `image` holds 8-bit R, G, B (and maybe alpha) planes; else one interleaved plane. */
    int planar;
};

static int brand_is(heif_brand2 brand, const char *fourcc) { return brand == heif_fourcc_to_brand(fourcc); }

/** AVIF when the main brand is avif/avis, or a generic mif1/msf1 file lists avif. */
static int is_av1_file(const uint8_t *bytes, size_t size) {
    int length = size > INT_MAX ? INT_MAX : (int)size;
    heif_brand2 main = heif_read_main_brand(bytes, length);
    if (brand_is(main, "avif") || brand_is(main, "avis")) return 1;
    if (brand_is(main, "mif1") || brand_is(main, "msf1")) return heif_has_compatible_brand(bytes, length, "avif") == 1;
    return 0;
}

webimage_status heif_shim_open(const uint8_t *bytes, size_t size, uint64_t max_side, heif_shim_reader **reader,
                               heif_shim_info *info, webimage_error *error) {
    *reader = NULL;
    memset(info, 0, sizeof *info);
    heif_shim_initialize();
    if (size < 12) return webimage_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file has only %zu bytes", size);
    if (memcmp(bytes + 4, "ftyp", 4) != 0) {
        return webimage_failf(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT,
                              HEIF_SHIM_NOT_HEIF_WORDING "the file does not start with an 'ftyp' box");
    }
    heif_shim_reader *opened = calloc(1, sizeof *opened);
    if (!opened) return webimage_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    opened->bytes = bytes;
    opened->size = size;
    opened->context = heif_context_alloc();
    if (!opened->context) {
        free(opened);
        return webimage_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "libheif could not allocate a context");
    }
    if (max_side > 0) {
        heif_context_set_maximum_image_size_limit(opened->context, max_side > INT_MAX ? INT_MAX : (int)max_side);
    }
    struct heif_error failure = heif_context_read_from_memory_without_copy(opened->context, bytes, size, NULL);
    if (!failure.code) failure = heif_context_get_primary_image_handle(opened->context, &opened->primary);
    if (failure.code) {
        /* The message lives in the context: format it before closing. */
        webimage_status status = heif_shim_fail_heif(error, failure, "cannot read the HEIF boxes");
        heif_shim_close(opened);
        return heif_shim_boxes_are_cut(bytes, size)
                   ? webimage_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "a box ends after the data")
                   : status;
    }
    if (heif_shim_item_data_is_cut(bytes, size)) {
        heif_shim_close(opened);
        return webimage_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "an item's data ends after the file");
    }
    opened->selected = opened->primary;
    int width = heif_image_handle_get_width(opened->primary);
    int height = heif_image_handle_get_height(opened->primary);
    if (width <= 0 || height <= 0) {
        heif_shim_close(opened);
        return webimage_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA, "the primary image has no size (%d×%d)", width,
                              height);
    }
    info->width = (uint32_t)width;
    info->height = (uint32_t)height;
    int ispe_width = heif_image_handle_get_ispe_width(opened->primary);
    int ispe_height = heif_image_handle_get_ispe_height(opened->primary);
    info->ispe_width = ispe_width > 0 ? (uint32_t)ispe_width : 0;
    info->ispe_height = ispe_height > 0 ? (uint32_t)ispe_height : 0;
    int bits = heif_image_handle_get_luma_bits_per_pixel(opened->primary);
    info->bits_per_component = bits > 0 ? bits : 8;
    info->has_alpha = heif_image_handle_has_alpha_channel(opened->primary) != 0;
    info->monochrome = heif_image_handle_get_chroma_bits_per_pixel(opened->primary) <= 0;
    info->top_level_count = heif_context_get_number_of_top_level_images(opened->context);
    info->thumbnail_count = heif_image_handle_get_number_of_thumbnails(opened->primary);
    info->is_av1 = is_av1_file(bytes, size);
    *reader = opened;
    return WEBIMAGE_STATUS_OK;
}

void heif_shim_close(heif_shim_reader *reader) {
    if (!reader) return;
    if (reader->selected && reader->selected != reader->primary) heif_image_handle_release(reader->selected);
    if (reader->primary) heif_image_handle_release(reader->primary);
    if (reader->context) heif_context_free(reader->context);
    free(reader);
}

bool heif_shim_use_thumbnail(heif_shim_reader *reader, uint32_t box_width, uint32_t box_height, uint32_t *width,
                             uint32_t *height) {
    int count = heif_image_handle_get_number_of_thumbnails(reader->primary);
    if (count <= 0 || count > 64) return 0;
    heif_item_id ids[64];
    count = heif_image_handle_get_list_of_thumbnail_IDs(reader->primary, ids, count);
    struct heif_image_handle *best = NULL;
    uint64_t best_pixels = UINT64_MAX;
    for (int i = 0; i < count; i++) {
        struct heif_image_handle *thumbnail = NULL;
        if (heif_image_handle_get_thumbnail(reader->primary, ids[i], &thumbnail).code) continue;
        int thumbnail_width = heif_image_handle_get_width(thumbnail);
        int thumbnail_height = heif_image_handle_get_height(thumbnail);
        uint64_t pixels = (uint64_t)(thumbnail_width > 0 ? thumbnail_width : 0) *
                          (uint64_t)(thumbnail_height > 0 ? thumbnail_height : 0);
        if (thumbnail_width > 0 && thumbnail_height > 0 && (uint32_t)thumbnail_width >= box_width &&
            (uint32_t)thumbnail_height >= box_height && pixels < best_pixels) {
            if (best) heif_image_handle_release(best);
            best = thumbnail;
            best_pixels = pixels;
        } else {
            heif_image_handle_release(thumbnail);
        }
    }
    if (!best) return 0;
    if (reader->selected != reader->primary) heif_image_handle_release(reader->selected);
    reader->selected = best;
    *width = (uint32_t)heif_image_handle_get_width(best);
    *height = (uint32_t)heif_image_handle_get_height(best);
    return 1;
}

/** libheif's RGBA (or RRGGBBAA) interleaved decode, with its own colour conversion. */
static struct heif_error decode_interleaved(const struct heif_image_handle *handle, int deep,
                                            struct heif_image **image) {
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) {
        return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    }
    options->convert_hdr_to_8bit = (uint8_t)!deep;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    enum heif_chroma deep_chroma = heif_chroma_interleaved_RRGGBBAA_LE;
#else
    enum heif_chroma deep_chroma = heif_chroma_interleaved_RRGGBBAA_BE;
#endif
    struct heif_error failure = heif_decode_image(handle, image, heif_colorspace_RGB,
                                                  deep ? deep_chroma : heif_chroma_interleaved_RGBA, options);
    heif_decoding_options_free(options);
    if (!failure.code && !heif_image_has_channel(*image, heif_channel_interleaved)) {
        heif_image_release(*image);
        *image = NULL;
        failure = (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_Unspecified,
                                      "libheif returned no interleaved plane"};
    }
    return failure;
}

/** True when `channel` is an 8-bit plane of at least `width` × `height` samples. */
static int is_full_8bit_plane(const struct heif_image *image, enum heif_channel channel, int width, int height) {
    return heif_image_has_channel(image, channel) && heif_image_get_bits_per_pixel(image, channel) == 8 &&
           heif_image_get_bits_per_pixel_range(image, channel) == 8 && heif_image_get_width(image, channel) >= width &&
           heif_image_get_height(image, channel) >= height;
}

/**
 * Decodes an 8-bit colour image to planar RGB (heif_shim_copy interleaves it into the host's
 * buffer). Without alpha, the HEVC plugin converts YCbCr to RGB itself on two threads; with
 * alpha, an unreadable 'colr' box, or for AV1, libheif converts. Leaves `*planar` 0 (and no
 * image) when libheif returns something else: the caller then decodes interleaved.
 */
static struct heif_error decode_planar(const struct heif_image_handle *handle, struct heif_image **image, int *planar) {
    /* libheif 1.15 may return a profile together with an error (an unknown matrix): freed either way. */
    struct heif_color_profile_nclx *colr = NULL;
    enum heif_error_code colr_error = heif_image_handle_get_nclx_color_profile(handle, &colr).code;
    /* An unreadable 'colr' box still steers libheif's conversion: leave those files to it. */
    int plugin_converts = !heif_image_handle_has_alpha_channel(handle) &&
                          (colr_error == heif_error_Ok || colr_error == heif_error_Color_profile_does_not_exist);
    if (plugin_converts) heif_shim_begin_rgb_pictures(colr_error == heif_error_Ok ? colr : NULL);
    struct heif_error failure = heif_decode_image(handle, image, heif_colorspace_RGB, heif_chroma_444, NULL);
    if (plugin_converts) heif_shim_end_rgb_pictures();
    heif_nclx_color_profile_free(colr);
    if (failure.code) return failure;
    int width = heif_image_get_width(*image, heif_channel_R);
    int height = heif_image_get_height(*image, heif_channel_R);
    *planar = heif_image_get_colorspace(*image) == heif_colorspace_RGB &&
              heif_image_get_chroma_format(*image) == heif_chroma_444 && width > 0 && height > 0 &&
              is_full_8bit_plane(*image, heif_channel_R, width, height) &&
              is_full_8bit_plane(*image, heif_channel_G, width, height) &&
              is_full_8bit_plane(*image, heif_channel_B, width, height) &&
              (!heif_image_has_channel(*image, heif_channel_Alpha) ||
               is_full_8bit_plane(*image, heif_channel_Alpha, width, height));
    if (!*planar) {
        heif_image_release(*image);
        *image = NULL;
    }
    return failure;
}

webimage_status heif_shim_decode(heif_shim_reader *reader, bool sixteen_bit, uint64_t max_pixel_count,
                                 heif_shim_decoded **decoded, uint32_t *width, uint32_t *height, int *sixteen_bit_out,
                                 webimage_error *error) {
    *decoded = NULL;
    const struct heif_image_handle *handle = reader->selected;
    int shown_width = heif_image_handle_get_width(handle);
    int shown_height = heif_image_handle_get_height(handle);
    int ispe_width = heif_image_handle_get_ispe_width(handle);
    int ispe_height = heif_image_handle_get_ispe_height(handle);
    if (shown_width <= 0 || shown_height <= 0) {
        return webimage_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA, "the image has no size (%d×%d)", shown_width,
                              shown_height);
    }
    webimage_status limit =
        webimage_check_pixel_limit((uint32_t)shown_width, (uint32_t)shown_height, max_pixel_count, error);
    if (limit != WEBIMAGE_STATUS_OK) return limit;
    if (ispe_width > 0 && ispe_height > 0) {
        limit = webimage_check_pixel_limit((uint32_t)ispe_width, (uint32_t)ispe_height, max_pixel_count, error);
        if (limit != WEBIMAGE_STATUS_OK) return limit;
    }
    uint64_t canvas_width = 0, canvas_height = 0;
    if (heif_shim_derived_canvas_too_large(reader->bytes, reader->size, max_pixel_count, &canvas_width,
                                           &canvas_height)) {
        return webimage_failf(error, WEBIMAGE_STATUS_TOO_LARGE,
                              "image too large: a derived image's canvas of %llu×%llu pixels exceeds the limit of "
                              "%llu pixels",
                              (unsigned long long)canvas_width, (unsigned long long)canvas_height,
                              (unsigned long long)max_pixel_count);
    }
    int source_bits = heif_image_handle_get_luma_bits_per_pixel(handle);
    int deep = sixteen_bit && source_bits > 8;
    int planar = source_bits == 8 && heif_image_handle_get_chroma_bits_per_pixel(handle) == 8;
    struct heif_image *image = NULL;
    struct heif_error failure = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    if (planar) failure = decode_planar(handle, &image, &planar);
    if (!failure.code && !planar) failure = decode_interleaved(handle, deep, &image);
    if (failure.code) {
        webimage_status status = heif_shim_fail_heif(error, failure, "cannot decode the image");
        return heif_shim_boxes_are_cut(reader->bytes, reader->size)
                   ? webimage_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the image data ends after the file")
                   : status;
    }
    enum heif_channel channel = planar ? heif_channel_R : heif_channel_interleaved;
    int out_width = heif_image_get_width(image, channel);
    int out_height = heif_image_get_height(image, channel);
    if (out_width != shown_width || out_height != shown_height) {
        heif_image_release(image);
        return webimage_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA,
                              "the coded image is %d×%d but the file declares %d×%d", out_width, out_height,
                              shown_width, shown_height);
    }
    heif_shim_decoded *result = calloc(1, sizeof *result);
    if (!result) {
        heif_image_release(image);
        return webimage_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    result->image = image;
    result->width = (uint32_t)out_width;
    result->height = (uint32_t)out_height;
    result->planar = planar;
    result->bits = deep ? heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) : 8;
    if (deep && (result->bits <= 8 || result->bits > 16)) result->bits = source_bits;
    result->premultiplied = heif_image_is_premultiplied_alpha(image) != 0;
    *decoded = result;
    *width = result->width;
    *height = result->height;
    *sixteen_bit_out = deep;
    return WEBIMAGE_STATUS_OK;
}

static void copy_rgba8(const heif_shim_decoded *decoded, const uint8_t *source, int source_stride, uint8_t *target,
                       size_t stride) {
    size_t row_bytes = (size_t)decoded->width * 4;
    for (uint32_t y = 0; y < decoded->height; y++) {
        uint8_t *row = target + y * stride;
        memcpy(row, source + (size_t)y * (size_t)source_stride, row_bytes);
        if (!decoded->premultiplied) continue;
        for (uint32_t x = 0; x < decoded->width; x++) {
            uint8_t *pixel = row + x * 4;
            unsigned alpha = pixel[3];
            if (alpha == 0 || alpha == 255) continue;
            for (int c = 0; c < 3; c++) {
                unsigned value = (pixel[c] * 255u + alpha / 2) / alpha;
                pixel[c] = (uint8_t)(value > 255 ? 255 : value);
            }
        }
    }
}

static void copy_rgba16(const heif_shim_decoded *decoded, const uint8_t *source, int source_stride, uint8_t *target,
                        size_t stride) {
    uint32_t maximum = (1u << decoded->bits) - 1;
    uint16_t scale[1u << 12];
    uint32_t entries = maximum + 1 < (1u << 12) ? maximum + 1 : (1u << 12);
    for (uint32_t value = 0; value < entries; value++)
        scale[value] = (uint16_t)((value * 65535u + maximum / 2) / maximum);
    for (uint32_t y = 0; y < decoded->height; y++) {
        const uint16_t *in = (const uint16_t *)(const void *)(source + (size_t)y * (size_t)source_stride);
        uint16_t *out = (uint16_t *)(void *)(target + y * stride);
        for (uint32_t x = 0; x < decoded->width; x++) {
            uint32_t alpha = in[x * 4 + 3] & maximum;
            for (int c = 0; c < 4; c++) {
                uint32_t value = in[x * 4 + c] & maximum;
                if (decoded->premultiplied && c < 3 && alpha > 0 && alpha < maximum) {
                    value = (value * maximum + alpha / 2) / alpha;
                    if (value > maximum) value = maximum;
                }
                out[x * 4 + c] = value < entries ? scale[value] : (uint16_t)((value * 65535u) / maximum);
            }
        }
    }
}

static void interleave(const heif_shim_decoded *decoded, uint8_t *pixels, size_t stride) {
    static const enum heif_channel channels[4] = {heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha};
    heif_shim_interleave_job job = {.pixels = pixels,
                                    .stride = stride,
                                    .width = decoded->width,
                                    .height = decoded->height,
                                    .premultiplied = decoded->premultiplied};
    for (int plane = 0; plane < 4; plane++) {
        if (!heif_image_has_channel(decoded->image, channels[plane])) continue;
        int plane_stride = 0;
        job.planes[plane] = heif_image_get_plane_readonly(decoded->image, channels[plane], &plane_stride);
        job.strides[plane] = (size_t)plane_stride;
    }
    heif_shim_interleave(&job);
}

void heif_shim_copy(const heif_shim_decoded *decoded, void *pixels, size_t stride) {
    if (decoded->planar) {
        interleave(decoded, pixels, stride);
        return;
    }
    int source_stride = 0;
    const uint8_t *source = heif_image_get_plane_readonly(decoded->image, heif_channel_interleaved, &source_stride);
    if (decoded->bits > 8) {
        copy_rgba16(decoded, source, source_stride, pixels, stride);
    } else {
        copy_rgba8(decoded, source, source_stride, pixels, stride);
    }
}

void heif_shim_release(heif_shim_decoded *decoded) {
    if (!decoded) return;
    heif_image_release(decoded->image);
    free(decoded);
}
