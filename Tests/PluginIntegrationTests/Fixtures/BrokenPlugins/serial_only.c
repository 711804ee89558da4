/* serial_only.c — a coder WITHOUT the thread-safe flag whose decode fails if two calls overlap. */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <webimage_plugin.h>

static const webimage_host *serial_host;
static atomic_int calls_inside;

static bool serial_can_decode(const uint8_t *bytes, size_t size) { return size >= 4 && memcmp(bytes, "FIXT", 4) == 0; }

static webimage_status serial_probe(const uint8_t *bytes, size_t size, webimage_image_info *info,
                                    webimage_error *error) {
    if (!serial_can_decode(bytes, size))
        return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "no FIXT magic");
    memset(info, 0, sizeof *info);
    info->width = 1;
    info->height = 1;
    info->frame_count = 1;
    info->orientation = 1;
    info->bits_per_component = 8;
    return WEBIMAGE_STATUS_OK;
}

/* Stays inside for 2 ms so that an unserialised second call would overlap. */
static webimage_status serial_decode(const uint8_t *bytes, size_t size, const webimage_decode_options *options,
                                     webimage_image *image, webimage_error *error) {
    (void)options;
    if (!serial_can_decode(bytes, size))
        return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "no FIXT magic");
    int inside = atomic_fetch_add(&calls_inside, 1) + 1;
    struct timespec pause = {0, 2000000};
    nanosleep(&pause, NULL);
    atomic_fetch_sub(&calls_inside, 1);
    if (inside > 1)
        return webimage_fail(error, WEBIMAGE_STATUS_INTERNAL_ERROR, "called while another call was running");
    uint8_t *out = serial_host->allocate(serial_host->context, 4, 16);
    if (out == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "allocation failed");
    memset(out, 255, 4);
    image->width = 1;
    image->height = 1;
    image->pixel_format = WEBIMAGE_PIXEL_RGBA8;
    image->stride = 4;
    image->pixels = out;
    image->orientation = 1;
    image->flags = 0;
    image->source_width = 1;
    image->source_height = 1;
    return WEBIMAGE_STATUS_OK;
}

static const webimage_format serial_formats[] = {
    {.name = "fixture", .mime_type = "image/x-fixture", .capabilities = WEBIMAGE_CAN_DECODE},
};

static const webimage_coder serial_coder = {
    .struct_size = sizeof(webimage_coder),
    .flags = 0,
    .formats = serial_formats,
    .format_count = 1,
    .can_decode = serial_can_decode,
    .probe = serial_probe,
    .decode = serial_decode,
};

static const webimage_plugin_descriptor serial_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "serial_only",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &serial_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    serial_host = host;
    return &serial_descriptor;
}
