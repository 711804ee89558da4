/*
 * hostile_coder.c — a coder that tries to take over whatever its manifest claims: it accepts
 * every input, decodes it as one pixel (1, 2, 3, 4) RGBA8 and encodes every image as the 9
 * bytes "HIJACKED\n". Loading the library (before its entry runs) creates the file
 * HOSTILE_MARKER, so a test can tell whether the host ever opened it.
 *
 * Compile-time settings (-D), each a C string literal:
 *   HOSTILE_NAME    descriptor name (default "hostile")
 *   HOSTILE_FORMAT  the one format's name (default "hostile")
 *   HOSTILE_MIME    its MIME type (default "image/x-hostile")
 *   HOSTILE_MARKER  the file created when the library is loaded (required)
 */
#include <stdio.h>
#include <string.h>

#include <webimage_plugin.h>

#ifndef HOSTILE_NAME
#define HOSTILE_NAME "hostile"
#endif
#ifndef HOSTILE_FORMAT
#define HOSTILE_FORMAT "hostile"
#endif
#ifndef HOSTILE_MIME
#define HOSTILE_MIME "image/x-hostile"
#endif
#ifndef HOSTILE_MARKER
#error "define HOSTILE_MARKER as the path of the file to create when the library is loaded"
#endif

static const webimage_host *hostile_host;

__attribute__((constructor)) static void hostile_loaded(void) {
    FILE *marker = fopen(HOSTILE_MARKER, "w");
    if (marker != NULL) {
        fputs("loaded\n", marker);
        fclose(marker);
    }
}

static bool hostile_can_decode(const uint8_t *bytes, size_t size) {
    (void)bytes;
    return size > 0;
}

static webimage_status hostile_probe(const uint8_t *bytes, size_t size, webimage_image_info *info,
                                     webimage_error *error) {
    if (!hostile_can_decode(bytes, size)) return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "empty");
    info->format_index = 0;
    info->width = 1;
    info->height = 1;
    info->frame_count = 1;
    info->loop_count = 0;
    info->orientation = 1;
    info->bits_per_component = 8;
    info->flags = WEBIMAGE_IMAGE_HAS_ALPHA;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status hostile_decode(const uint8_t *bytes, size_t size, const webimage_decode_options *options,
                                      webimage_image *image, webimage_error *error) {
    static const uint8_t pixel[4] = {1, 2, 3, 4};
    (void)options;
    if (!hostile_can_decode(bytes, size)) return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "empty");
    uint8_t *out = hostile_host->allocate(hostile_host->context, sizeof pixel, 16);
    if (out == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "allocation failed");
    memcpy(out, pixel, sizeof pixel);
    image->width = 1;
    image->height = 1;
    image->pixel_format = WEBIMAGE_PIXEL_RGBA8;
    image->stride = 4;
    image->pixels = out;
    image->orientation = 1;
    image->flags = WEBIMAGE_IMAGE_HAS_ALPHA;
    image->source_width = 1;
    image->source_height = 1;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status hostile_encode(const webimage_image_view *image, const webimage_encode_options *options,
                                      webimage_buffer *output, webimage_error *error) {
    static const char text[] = "HIJACKED\n";
    (void)image;
    (void)options;
    uint8_t *bytes = hostile_host->allocate(hostile_host->context, sizeof text - 1, 16);
    if (bytes == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "allocation failed");
    memcpy(bytes, text, sizeof text - 1);
    output->bytes = bytes;
    output->size = sizeof text - 1;
    return WEBIMAGE_STATUS_OK;
}

static const webimage_format hostile_formats[] = {
    {.name = HOSTILE_FORMAT, .mime_type = HOSTILE_MIME, .capabilities = WEBIMAGE_CAN_DECODE | WEBIMAGE_CAN_ENCODE},
};

static const webimage_coder hostile_coder = {
    .struct_size = sizeof(webimage_coder),
    .flags = WEBIMAGE_CODER_THREAD_SAFE,
    .formats = hostile_formats,
    .format_count = 1,
    .can_decode = hostile_can_decode,
    .probe = hostile_probe,
    .decode = hostile_decode,
    .encode = hostile_encode,
};

static const webimage_plugin_descriptor hostile_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = HOSTILE_NAME,
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &hostile_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    hostile_host = host;
    return &hostile_descriptor;
}
