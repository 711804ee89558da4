/*
 * A libheif decoder plugin for HEVC that runs libde265 with two worker threads.
 *
 * libheif 1.15's own libde265 plugin starts one worker thread, so a picture is decoded on
 * one core; with two, libde265 decodes the rows of a WPP-coded picture (x265's default) and
 * runs its deblocking and SAO filters in parallel. Before decoding, every SPS is checked
 * against the largest picture any HEVC level allows, so a hostile SPS cannot make libde265
 * allocate more than ~55 MB per picture whatever the boxes say.
 *
 * libde265 is bound at run time from the copy libheif already loaded (the plugin target
 * links libheif only), through dlopen with RTLD_NOLOAD.
 *
 * libheif 1.15 turns every decoded YCbCr picture into planar RGB (one thread, float) before
 * anything else, even when YCbCr is requested. So when the shim asks for it on the decoding
 * thread (heif_shim_begin_rgb_pictures), the plugin returns 8-bit pictures as planar RGB,
 * converted on two threads straight from libde265's planes (heif_shim_convert.c); libheif
 * then only applies the transformations. Grid tiles, which libheif 1.15 decodes on its own
 * threads, and unusual matrices stay YCbCr and are converted by libheif.
 */
#include "../heif_shim_internal.h"

#include <dlfcn.h>
#include <libde265/de265.h>
#include <libheif/heif_plugin.h>
#include <stdlib.h>
#include <string.h>

/** libde265 worker threads per decoder: this machine class has two cores. */
enum { worker_threads = 2 };

/** Higher than libheif's built-in libde265 plugin (100), so this one is chosen. */
enum { plugin_priority = 110 };

static struct {
    de265_decoder_context *(*new_decoder)(void);
    de265_error (*start_worker_threads)(de265_decoder_context *, int);
    de265_error (*free_decoder)(de265_decoder_context *);
    de265_error (*push_nal)(de265_decoder_context *, const void *, int, de265_PTS, void *);
    de265_error (*flush_data)(de265_decoder_context *);
    de265_error (*decode)(de265_decoder_context *, int *);
    const struct de265_image *(*get_next_picture)(de265_decoder_context *);
    void (*release_next_picture)(de265_decoder_context *);
    int (*image_width)(const struct de265_image *, int);
    int (*image_height)(const struct de265_image *, int);
    enum de265_chroma (*chroma_format)(const struct de265_image *);
    int (*bits_per_pixel)(const struct de265_image *, int);
    const uint8_t *(*image_plane)(const struct de265_image *, int, int *);
    int (*full_range_flag)(const struct de265_image *);
    int (*colour_primaries)(const struct de265_image *);
    int (*transfer_characteristics)(const struct de265_image *);
    int (*matrix_coefficients)(const struct de265_image *);
} de265;

static int bind_libde265(void) {
    void *library = dlopen("libde265.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (!library) return 0;
#define BIND(field, symbol) \
    if (!(*(void **)&de265.field = dlsym(library, symbol))) return 0;
    BIND(new_decoder, "de265_new_decoder")
    BIND(start_worker_threads, "de265_start_worker_threads")
    BIND(free_decoder, "de265_free_decoder")
    BIND(push_nal, "de265_push_NAL")
    BIND(flush_data, "de265_flush_data")
    BIND(decode, "de265_decode")
    BIND(get_next_picture, "de265_get_next_picture")
    BIND(release_next_picture, "de265_release_next_picture")
    BIND(image_width, "de265_get_image_width")
    BIND(image_height, "de265_get_image_height")
    BIND(chroma_format, "de265_get_chroma_format")
    BIND(bits_per_pixel, "de265_get_bits_per_pixel")
    BIND(image_plane, "de265_get_image_plane")
    BIND(full_range_flag, "de265_get_image_full_range_flag")
    BIND(colour_primaries, "de265_get_image_colour_primaries")
    BIND(transfer_characteristics, "de265_get_image_transfer_characteristics")
    BIND(matrix_coefficients, "de265_get_image_matrix_coefficients")
#undef BIND
    return 1;
}

/* ---- SPS size check ---- */

/** Reads bits from a NAL unit's payload, skipping emulation-prevention bytes. */
typedef struct bit_reader {
    const uint8_t *bytes;
    size_t size;
    size_t byte;
    int bit;
    int zeros;
    int overrun;
} bit_reader;

static int read_bit(bit_reader *reader) {
    if (reader->bit == 0) {
        if (reader->zeros >= 2 && reader->byte < reader->size && reader->bytes[reader->byte] == 3) {
            reader->byte++;
            reader->zeros = 0;
        }
        if (reader->byte >= reader->size) {
            reader->overrun = 1;
            return 0;
        }
        reader->zeros = reader->bytes[reader->byte] == 0 ? reader->zeros + 1 : 0;
    }
    int value = (reader->bytes[reader->byte] >> (7 - reader->bit)) & 1;
    if (++reader->bit == 8) {
        reader->bit = 0;
        reader->byte++;
    }
    return value;
}

static uint32_t read_bits(bit_reader *reader, int count) {
    uint32_t value = 0;
    for (int i = 0; i < count; i++) value = (value << 1) | (uint32_t)read_bit(reader);
    return value;
}

/** Exp-Golomb ue(v); values past 32 bits count as an overrun. */
static uint32_t read_unsigned_golomb(bit_reader *reader) {
    int leading_zeros = 0;
    while (!read_bit(reader)) {
        if (reader->overrun || ++leading_zeros > 31) {
            reader->overrun = 1;
            return 0;
        }
    }
    return (uint32_t)((1ull << leading_zeros) - 1 + read_bits(reader, leading_zeros));
}

/**
 * For an SPS NAL unit (type 33), reads pic_width/height_in_luma_samples. Returns 0 when the
 * NAL is not an SPS, 1 with the size, -1 when the SPS is cut short.
 */
static int sps_size(const uint8_t *nal, size_t size, uint32_t *width, uint32_t *height) {
    if (size < 2 || ((nal[0] >> 1) & 0x3F) != 33) return 0;
    bit_reader reader = {nal + 2, size - 2, 0, 0, 0, 0};
    read_bits(&reader, 4); /* sps_video_parameter_set_id */
    uint32_t max_sub_layers_minus1 = read_bits(&reader, 3);
    read_bits(&reader, 1); /* sps_temporal_id_nesting_flag */
    /* profile_tier_level: general profile (88 bits) and level (8 bits). */
    read_bits(&reader, 32);
    read_bits(&reader, 32);
    read_bits(&reader, 32);
    int profile_present[8] = {0};
    int level_present[8] = {0};
    for (uint32_t i = 0; i < max_sub_layers_minus1; i++) {
        profile_present[i] = read_bit(&reader);
        level_present[i] = read_bit(&reader);
    }
    if (max_sub_layers_minus1 > 0) {
        for (uint32_t i = max_sub_layers_minus1; i < 8; i++) read_bits(&reader, 2);
    }
    for (uint32_t i = 0; i < max_sub_layers_minus1; i++) {
        if (profile_present[i]) {
            read_bits(&reader, 32);
            read_bits(&reader, 32);
            read_bits(&reader, 24);
        }
        if (level_present[i]) read_bits(&reader, 8);
    }
    read_unsigned_golomb(&reader); /* sps_seq_parameter_set_id */
    if (read_unsigned_golomb(&reader) == 3) read_bit(&reader); /* separate_colour_plane_flag */
    *width = read_unsigned_golomb(&reader);
    *height = read_unsigned_golomb(&reader);
    return reader.overrun ? -1 : 1;
}

/* ---- The plugin ---- */

typedef struct hevc_decoder {
    de265_decoder_context *context;
} hevc_decoder;

static const struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

static struct heif_error plugin_error(enum heif_suberror_code subcode, const char *message) {
    return (struct heif_error){heif_error_Decoder_plugin_error, subcode, message};
}

static const char *plugin_name(void) { return "WebImage libde265 HEVC decoder (2 threads)"; }

static int does_support_format(enum heif_compression_format format) {
    return format == heif_compression_HEVC ? plugin_priority : 0;
}

static struct heif_error new_decoder(void **result) {
    hevc_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) {
        return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    }
    decoder->context = de265.new_decoder();
    if (!decoder->context) {
        free(decoder);
        return plugin_error(heif_suberror_Unspecified, "libde265 could not create a decoder");
    }
    de265.start_worker_threads(decoder->context, worker_threads);
    *result = decoder;
    return ok;
}

static void free_decoder(void *raw) {
    hevc_decoder *decoder = raw;
    de265.free_decoder(decoder->context);
    free(decoder);
}

static struct heif_error push_data(void *raw, const void *data, size_t size) {
    hevc_decoder *decoder = raw;
    const uint8_t *bytes = data;
    size_t position = 0;
    while (position < size) {
        if (size - position < 4) return plugin_error(heif_suberror_End_of_data, "HEVC data ends inside a NAL size");
        uint32_t nal_size = (uint32_t)bytes[position] << 24 | (uint32_t)bytes[position + 1] << 16 |
                            (uint32_t)bytes[position + 2] << 8 | bytes[position + 3];
        position += 4;
        if (nal_size > size - position) return plugin_error(heif_suberror_End_of_data, "HEVC NAL unit cut short");
        uint32_t width = 0, height = 0;
        int sps = sps_size(bytes + position, nal_size, &width, &height);
        if (sps < 0) return plugin_error(heif_suberror_End_of_data, "HEVC SPS cut short");
        if (sps > 0 &&
            (width == 0 || height == 0 || width > HEIF_SHIM_HEVC_MAX_SIDE || height > HEIF_SHIM_HEVC_MAX_SIDE ||
             (uint64_t)width * height > HEIF_SHIM_HEVC_MAX_LUMA_SAMPLES)) {
            return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded,
                                       "the HEVC SPS declares a picture larger than any HEVC level allows"};
        }
        de265.push_nal(decoder->context, bytes + position, (int)nal_size, 0, NULL);
        position += nal_size;
    }
    return ok;
}

/* ---- Planar RGB on request ---- */

typedef struct rgb_request {
    int wanted;
    int has_colr;
    uint16_t matrix;
    int full_range;
} rgb_request;

static _Thread_local rgb_request rgb_pictures;

void heif_shim_begin_rgb_pictures(const struct heif_color_profile_nclx *colr) {
    rgb_pictures = (rgb_request){1, colr != NULL, colr ? (uint16_t)colr->matrix_coefficients : 0,
                                 colr ? colr->full_range_flag != 0 : 0};
}

void heif_shim_end_rgb_pictures(void) { rgb_pictures = (rgb_request){0, 0, 0, 0}; }

int heif_shim_rgb_pictures_wanted(int *has_colr, uint16_t *matrix, int *full_range) {
    *has_colr = rgb_pictures.has_colr;
    *matrix = rgb_pictures.matrix;
    *full_range = rgb_pictures.full_range;
    return rgb_pictures.wanted;
}

/** Releases a half-made image and returns `failure`. */
static struct heif_error discard(struct heif_image **out, struct heif_error failure) {
    heif_image_release(*out);
    *out = NULL;
    return failure;
}

/**
 * Converts an 8-bit 4:2:0, 4:2:2 or 4:4:4 picture to planar RGB when this thread asked for
 * it and the matrix is one heif_shim_ycbcr_tables_init knows. Returns 1 when it took the
 * picture (`*failure` then says whether `*out` was made), 0 when it leaves it to libheif.
 */
static int convert_picture(const struct de265_image *picture, struct heif_image **out, struct heif_error *failure) {
    int has_colr = 0, full_range = 0;
    uint16_t matrix = 0;
    if (!heif_shim_rgb_pictures_wanted(&has_colr, &matrix, &full_range)) return 0;
    enum de265_chroma chroma = de265.chroma_format(picture);
    if (chroma != de265_chroma_420 && chroma != de265_chroma_422 && chroma != de265_chroma_444) return 0;
    int width = de265.image_width(picture, 0);
    int height = de265.image_height(picture, 0);
    uint32_t shift_x = chroma == de265_chroma_444 ? 0 : 1;
    uint32_t shift_y = chroma == de265_chroma_420 ? 1 : 0;
    if (width <= 0 || height <= 0) return 0;
    for (int plane = 0; plane < 3; plane++) {
        if (de265.bits_per_pixel(picture, plane) != 8) return 0;
    }
    for (int plane = 1; plane < 3; plane++) {
        if (de265.image_width(picture, plane) < (int)(((uint32_t)width + shift_x) >> shift_x) ||
            de265.image_height(picture, plane) < (int)(((uint32_t)height + shift_y) >> shift_y)) {
            return 0;
        }
    }
    if (!has_colr) {
        matrix = (uint16_t)de265.matrix_coefficients(picture);
        full_range = de265.full_range_flag(picture) != 0;
    }
    heif_shim_ycbcr_tables tables;
    if (!heif_shim_ycbcr_tables_init(&tables, matrix, full_range)) return 0;
    *failure = heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_444, out);
    if (failure->code) return 1;
    static const enum heif_channel channels[3] = {heif_channel_R, heif_channel_G, heif_channel_B};
    heif_shim_ycbcr_job job = {.tables = &tables,
                               .width = (uint32_t)width,
                               .height = (uint32_t)height,
                               .chroma_shift_x = shift_x,
                               .chroma_shift_y = shift_y};
    for (int plane = 0; plane < 3; plane++) {
        *failure = heif_image_add_plane(*out, channels[plane], width, height, 8);
        if (failure->code) {
            *failure = discard(out, *failure);
            return 1;
        }
        int source_stride = 0, target_stride = 0;
        job.planes[plane] = de265.image_plane(picture, plane, &source_stride);
        job.rgb[plane] = heif_image_get_plane(*out, channels[plane], &target_stride);
        job.strides[plane] = (size_t)source_stride;
        job.rgb_strides[plane] = (size_t)target_stride;
    }
    heif_shim_ycbcr_to_rgb(&job);
    return 1;
}

static struct heif_error copy_picture(const struct de265_image *picture, struct heif_image **out) {
    struct heif_error converted = ok;
    if (convert_picture(picture, out, &converted)) return converted;
    int monochrome = de265.chroma_format(picture) == de265_chroma_mono;
    int bits = de265.bits_per_pixel(picture, 0);
    struct heif_error failure = heif_image_create(de265.image_width(picture, 0), de265.image_height(picture, 0),
                                                  monochrome ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                  (enum heif_chroma)de265.chroma_format(picture), out);
    if (failure.code) return failure;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    for (int plane = 0; plane < (monochrome ? 1 : 3); plane++) {
        int width = de265.image_width(picture, plane);
        int height = de265.image_height(picture, plane);
        if (de265.bits_per_pixel(picture, plane) != bits || width <= 0 || height <= 0) {
            return discard(out,
                           plugin_error(heif_suberror_Invalid_image_size, "libde265 returned inconsistent planes"));
        }
        failure = heif_image_add_plane(*out, channels[plane], width, height, bits);
        if (failure.code) return discard(out, failure);
        int source_stride = 0;
        int target_stride = 0;
        const uint8_t *source = de265.image_plane(picture, plane, &source_stride);
        uint8_t *target = heif_image_get_plane(*out, channels[plane], &target_stride);
        size_t row_bytes = (size_t)width * (size_t)((bits + 7) / 8);
        for (int y = 0; y < height; y++) {
            memcpy(target + (size_t)y * (size_t)target_stride, source + (size_t)y * (size_t)source_stride, row_bytes);
        }
    }
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx) {
        heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)de265.colour_primaries(picture));
        heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)de265.transfer_characteristics(picture));
        heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)de265.matrix_coefficients(picture));
        nclx->full_range_flag = (uint8_t)(de265.full_range_flag(picture) != 0);
        heif_image_set_nclx_color_profile(*out, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    return ok;
}

static struct heif_error decode_image(void *raw, struct heif_image **out) {
    hevc_decoder *decoder = raw;
    *out = NULL;
    de265.flush_data(decoder->context);
    int more = 0;
    do {
        more = 0;
        if (de265.decode(decoder->context, &more) != DE265_OK) break;
        const struct de265_image *picture = de265.get_next_picture(decoder->context);
        if (picture) {
            struct heif_error failure = copy_picture(picture, out);
            de265.release_next_picture(decoder->context);
            return failure;
        }
    } while (more);
    return plugin_error(heif_suberror_Unspecified, "libde265 decoded no picture");
}

static void set_strict_decoding(void *decoder, int flag) {
    (void)decoder;
    (void)flag;
}

static const struct heif_decoder_plugin hevc_plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = plugin_name,
    .does_support_format = does_support_format,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = decode_image,
    .set_strict_decoding = set_strict_decoding,
    .id_name = "webimage-libde265-mt",
};

int heif_shim_register_hevc_decoder(void) {
    if (!bind_libde265()) return 0;
    return heif_register_decoder_plugin(&hevc_plugin).code == heif_error_Ok;
}
