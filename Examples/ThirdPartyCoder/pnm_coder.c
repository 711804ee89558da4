/*
 * pnm_coder.c — the WebImage plugin entry point and coder table for PGM/PPM.
 *
 * A complete third-party coder in plain C: it decodes P2, P3, P5 and P6 files to RGBA8
 * (or RGBA16 for 16-bit files when asked) and encodes P6. The other files hold the
 * format work; this one adapts it to the plugin ABI in webimage_plugin.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pnm.h"

/* The host's services, kept from the entry call (valid for the life of the process). */
static const webimage_host *pnm_host;

webimage_status pnm_failf(webimage_error *error, webimage_status status, const char *format, ...) {
    if (error->message_capacity == 0) return status;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error->message, error->message_capacity, format, arguments);
    va_end(arguments);
    return status;
}

/**
 * Copies an input struct from the host, zero-filling fields the host's struct_size does
 * not cover: a host built against an older header passes a shorter struct.
 */
static webimage_decode_options read_decode_options(const webimage_decode_options *options) {
    webimage_decode_options copy;
    memset(&copy, 0, sizeof copy);
    size_t covered = options->struct_size < sizeof copy ? options->struct_size : sizeof copy;
    memcpy(&copy, options, covered);
    return copy;
}

static webimage_encode_options read_encode_options(const webimage_encode_options *options) {
    webimage_encode_options copy;
    memset(&copy, 0, sizeof copy);
    size_t covered = options->struct_size < sizeof copy ? options->struct_size : sizeof copy;
    memcpy(&copy, options, covered);
    return copy;
}

static bool pnm_can_decode(const uint8_t *bytes, size_t size) { return pnm_looks_like_pnm(bytes, size); }

static webimage_status pnm_probe(const uint8_t *bytes, size_t size, webimage_image_info *info, webimage_error *error) {
    /* Output structs: write only when the host's struct has room for every ABI 1 field. */
    if (info->struct_size < sizeof *info) {
        return pnm_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "image info struct is too small (%u bytes)",
                         info->struct_size);
    }
    pnm_header header;
    webimage_status status = pnm_read_header(bytes, size, &header, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    info->format_index = 0;
    info->width = header.width;
    info->height = header.height;
    info->frame_count = 1;
    info->loop_count = 0;
    info->orientation = 1; /* PNM carries no orientation */
    info->bits_per_component = header.maxval > 255 ? 16 : 8;
    info->flags = header.channels == 1 ? WEBIMAGE_IMAGE_GRAYSCALE : 0;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status pnm_decode(const uint8_t *bytes, size_t size, const webimage_decode_options *host_options,
                                  webimage_image *image, webimage_error *error) {
    if (image->struct_size < sizeof *image) {
        return pnm_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "image struct is too small (%u bytes)",
                         image->struct_size);
    }
    const webimage_decode_options options = read_decode_options(host_options);
    pnm_header header;
    webimage_status status = pnm_read_header(bytes, size, &header, error);
    if (status != WEBIMAGE_STATUS_OK) return status;

    /* 1. The pixel limit, before anything is allocated. Two uint32 factors fit in 64 bits. */
    uint64_t pixel_count = (uint64_t)header.width * header.height;
    if (options.max_pixel_count != 0 && pixel_count > options.max_pixel_count) {
        return pnm_failf(error, WEBIMAGE_STATUS_TOO_LARGE, "%ux%u is %llu pixels, more than the limit of %llu",
                         header.width, header.height, (unsigned long long)pixel_count,
                         (unsigned long long)options.max_pixel_count);
    }
    /* 2. A file too short for its raster fails now, not after a huge allocation. */
    status = pnm_check_raster_size(size, &header, error);
    if (status != WEBIMAGE_STATUS_OK) return status;

    /* 3. RGBA16 only when asked for and the file really has more than 8 bits. */
    const bool wide = options.pixel_format == WEBIMAGE_PIXEL_RGBA16 && header.maxval > 255;
    size_t stride = 0;
    size_t total = 0;
    if (!pnm_multiply(header.width, wide ? 8 : 4, &stride) || !pnm_multiply(stride, header.height, &total)) {
        return pnm_failf(error, WEBIMAGE_STATUS_TOO_LARGE, "%ux%u does not fit in memory", header.width, header.height);
    }
    uint8_t *pixels = pnm_host->allocate(pnm_host->context, total, 16);
    if (pixels == NULL) {
        return pnm_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "cannot allocate %zu bytes for %ux%u pixels", total,
                         header.width, header.height);
    }

    status = pnm_read_raster(bytes, size, &header, wide, pixels, stride, error);
    if (status != WEBIMAGE_STATUS_OK) {
        pnm_host->deallocate(pnm_host->context, pixels);
        return status;
    }
    image->width = header.width;
    image->height = header.height;
    image->pixel_format = wide ? WEBIMAGE_PIXEL_RGBA16 : WEBIMAGE_PIXEL_RGBA8;
    image->stride = stride;
    image->pixels = pixels; /* the host owns them from here on */
    image->orientation = 1;
    image->flags = header.channels == 1 ? WEBIMAGE_IMAGE_GRAYSCALE : 0;
    image->source_width = header.width;
    image->source_height = header.height;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status pnm_encode(const webimage_image_view *image, const webimage_encode_options *host_options,
                                  webimage_buffer *output, webimage_error *error) {
    const webimage_encode_options options = read_encode_options(host_options);
    if (options.format_index != 0) {
        return pnm_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "no format with index %u", options.format_index);
    }
    return pnm_write_p6(pnm_host, image, options.background_rgba, output, error);
}

/* Must match pnm.json: format name and the first MIME type. */
static const webimage_format pnm_formats[] = {
    {.name = "pnm", .mime_type = "image/x-portable-anymap", .capabilities = WEBIMAGE_CAN_DECODE | WEBIMAGE_CAN_ENCODE},
};

/* Optional functions (incremental, animation) stay NULL. No function keeps state, so
 * the host may call them from several threads at once. */
static const webimage_coder pnm_coder = {
    .struct_size = sizeof(webimage_coder),
    .flags = WEBIMAGE_CODER_THREAD_SAFE,
    .formats = pnm_formats,
    .format_count = sizeof pnm_formats / sizeof pnm_formats[0],
    .can_decode = pnm_can_decode,
    .probe = pnm_probe,
    .decode = pnm_decode,
    .encode = pnm_encode,
};

/* Must match pnm.json: name and version. */
static const webimage_plugin_descriptor pnm_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "pnm",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &pnm_coder,
};

#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
const webimage_plugin_descriptor *
webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    /* Refuse hosts whose table lacks the services used here (allocate, deallocate). */
    size_t needed = offsetof(webimage_host, deallocate) + sizeof host->deallocate;
    if (host == NULL || host->abi_version < 1 || host->struct_size < needed) return NULL;
    pnm_host = host;
    return &pnm_descriptor;
}
