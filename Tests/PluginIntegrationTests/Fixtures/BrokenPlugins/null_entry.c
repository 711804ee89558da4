/* null_entry.c — BROKEN: webimage_plugin_entry returns NULL (the plugin refuses to run). */
#include <webimage_plugin.h>

static bool stub_can_decode(const uint8_t *bytes, size_t size) {
    (void)bytes;
    (void)size;
    return false;
}

static webimage_status stub_probe(const uint8_t *bytes, size_t size, webimage_image_info *info,
                                  webimage_error *error) {
    (void)bytes;
    (void)size;
    (void)info;
    return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "stub coder");
}

static webimage_status stub_decode(const uint8_t *bytes, size_t size, const webimage_decode_options *options,
                                   webimage_image *image, webimage_error *error) {
    (void)bytes;
    (void)size;
    (void)options;
    (void)image;
    return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "stub coder");
}

static const webimage_format stub_formats[] = {
    {.name = "fixture", .mime_type = "image/x-fixture", .capabilities = WEBIMAGE_CAN_DECODE},
};

static const webimage_coder stub_coder = {
    .struct_size = sizeof(webimage_coder),
    .formats = stub_formats,
    .format_count = 1,
    .can_decode = stub_can_decode,
    .probe = stub_probe,
    .decode = stub_decode,
};

static const webimage_plugin_descriptor stub_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "null_entry",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &stub_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    (void)host;
    (void)stub_descriptor; /* a descriptor exists, but the entry never returns it */
    return NULL;
}
