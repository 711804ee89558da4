/*
 * stub_coder.h — the valid coder table every broken fixture shares, so that each fixture
 * fails for its one reason only: it accepts nothing (can_decode is false, probe and decode
 * return UNSUPPORTED_FORMAT) and declares the format "fixture" (image/x-fixture).
 * Included by exactly one .c file per plugin, hence the static definitions.
 */
#ifndef WEBIMAGE_FIXTURE_STUB_CODER_H
#define WEBIMAGE_FIXTURE_STUB_CODER_H

#include <webimage_plugin.h>

/* The format name the stub declares; a fixture may define another before including. */
#ifndef STUB_FORMAT_NAME
#define STUB_FORMAT_NAME "fixture"
#endif

static bool stub_can_decode(const uint8_t *bytes, size_t size) {
    (void)bytes;
    (void)size;
    return false;
}

static webimage_status stub_probe(const uint8_t *bytes, size_t size, webimage_image_info *info, webimage_error *error) {
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
    {.name = STUB_FORMAT_NAME, .mime_type = "image/x-fixture", .capabilities = WEBIMAGE_CAN_DECODE},
};

static const webimage_coder stub_coder = {
    .struct_size = sizeof(webimage_coder),
    .formats = stub_formats,
    .format_count = 1,
    .can_decode = stub_can_decode,
    .probe = stub_probe,
    .decode = stub_decode,
};

#endif
