/* deadline_spin.c — a valid coder whose decode spins until webimage_deadline_passed says the
 * host's deadline has passed, then fails with the header's TIMED_OUT reason. Built with
 * `-std=c11` (no POSIX feature macro), it shows the deadline helpers work in strict ISO C. */
#include <string.h>
#include <time.h>

#include <webimage_plugin.h>

static bool spin_can_decode(const uint8_t *bytes, size_t size) { return size >= 4 && memcmp(bytes, "FIXT", 4) == 0; }

static webimage_status spin_probe(const uint8_t *bytes, size_t size, webimage_image_info *info, webimage_error *error) {
    if (!spin_can_decode(bytes, size)) return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "no FIXT magic");
    info->format_index = 0;
    info->width = 2;
    info->height = 1;
    info->frame_count = 1;
    info->orientation = 1;
    info->bits_per_component = 8;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status spin_decode(const uint8_t *bytes, size_t size, const webimage_decode_options *options,
                                   webimage_image *image, webimage_error *error) {
    (void)image;
    if (!spin_can_decode(bytes, size)) return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "no FIXT magic");
    if (options->deadline_ns == 0) return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "no deadline");
    time_t start = time(NULL);
    while (!webimage_deadline_passed(options->deadline_ns)) {
        if (time(NULL) - start > 10) return webimage_fail(error, WEBIMAGE_STATUS_IO_ERROR, "the deadline never passed");
    }
    return webimage_fail_deadline(error);
}

static const webimage_format spin_formats[] = {
    {.name = "fixture", .mime_type = "image/x-fixture", .capabilities = WEBIMAGE_CAN_DECODE},
};

static const webimage_coder spin_coder = {
    .struct_size = sizeof(webimage_coder),
    .flags = WEBIMAGE_CODER_THREAD_SAFE,
    .formats = spin_formats,
    .format_count = 1,
    .can_decode = spin_can_decode,
    .probe = spin_probe,
    .decode = spin_decode,
};

static const webimage_plugin_descriptor spin_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "deadline_spin",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &spin_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    (void)host;
    return &spin_descriptor;
}
