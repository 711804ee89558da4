/* working.c — a minimal valid coder: decodes a 2×1 "fixture" image from bytes starting "FIXT". */
#include <string.h>

#include <webimage_plugin.h>

static const webimage_host *fixture_host;

static bool fixture_can_decode(const uint8_t *bytes, size_t size) { return size >= 4 && memcmp(bytes, "FIXT", 4) == 0; }

static webimage_status fixture_probe(const uint8_t *bytes, size_t size, webimage_image_info *info,
                                     webimage_error *error) {
    if (!fixture_can_decode(bytes, size))
        return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "no FIXT magic");
    info->format_index = 0;
    info->width = 2;
    info->height = 1;
    info->frame_count = 1;
    info->loop_count = 0;
    info->orientation = 1;
    info->bits_per_component = 8;
    info->flags = WEBIMAGE_IMAGE_HAS_ALPHA;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status fixture_decode(const uint8_t *bytes, size_t size, const webimage_decode_options *options,
                                      webimage_image *image, webimage_error *error) {
    static const uint8_t pixels[8] = {255, 0, 0, 255, 0, 0, 255, 128}; /* red; blue at alpha 128 */
    if (!fixture_can_decode(bytes, size))
        return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "no FIXT magic");
    if (options->max_pixel_count != 0 && options->max_pixel_count < 2)
        return webimage_fail(error, WEBIMAGE_STATUS_TOO_LARGE, "2 pixels exceed the limit");
    uint8_t *out = fixture_host->allocate(fixture_host->context, sizeof pixels, 16);
    if (out == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "allocation failed");
    memcpy(out, pixels, sizeof pixels);
    image->width = 2;
    image->height = 1;
    image->pixel_format = WEBIMAGE_PIXEL_RGBA8;
    image->stride = 8;
    image->pixels = out;
    image->orientation = 1;
    image->flags = WEBIMAGE_IMAGE_HAS_ALPHA;
    image->source_width = 2;
    image->source_height = 1;
    return WEBIMAGE_STATUS_OK;
}

static const webimage_format fixture_formats[] = {
    {.name = "fixture", .mime_type = "image/x-fixture", .capabilities = WEBIMAGE_CAN_DECODE},
};

static const webimage_coder fixture_coder = {
    .struct_size = sizeof(webimage_coder),
    .flags = WEBIMAGE_CODER_THREAD_SAFE,
    .formats = fixture_formats,
    .format_count = 1,
    .can_decode = fixture_can_decode,
    .probe = fixture_probe,
    .decode = fixture_decode,
};

static const webimage_plugin_descriptor fixture_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "working",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &fixture_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    fixture_host = host;
    return &fixture_descriptor;
}
