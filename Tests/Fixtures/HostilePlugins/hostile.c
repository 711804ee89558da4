/*
 * hostile.c — a coder that misbehaves on purpose, for the crash-isolation tests. One source,
 * compiled once per behaviour with -D flags (see README.md):
 *
 *   HOSTILE_NAME=<name>      the plugin's name (required)
 *   HOSTILE_IN_ENTRY / HOSTILE_IN_PROBE / HOSTILE_IN_DECODE / HOSTILE_IN_ENCODE
 *                            where it misbehaves: the entry function always; probe and decode
 *                            on input starting "HOSTX"; encode on an image 3 pixels wide
 *   HOSTILE_IN_ANIMATION_ADD animation_encoder_add on a frame 3 pixels wide
 *   HOSTILE_ABORT            misbehave with abort() (SIGABRT) instead of a write through NULL (SIGSEGV)
 *   HOSTILE_HANG             misbehave by sleeping forever instead of crashing
 *   HOSTILE_CHATTY           write two lines to standard error in every decode (as libdav1d or
 *                            x265 do), then decode normally
 *
 * Otherwise it is a working coder of the format "hostile" (image/x-hostile, magic "HOST"):
 * decoding gives a 2×1 RGBA8 image whose first pixel is (n, 0, 0, 255), n being the number of
 * decodes this process has run (1 for the first), so a test sees when a new worker process
 * serves it; encoding writes "HOST" followed by the first pixel's four bytes. Its frame-by-frame
 * animation encoder writes "HOSTANIM", then the first pixel's four bytes of each frame added.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <webimage_plugin.h>

#ifndef HOSTILE_NAME
#error "define HOSTILE_NAME"
#endif
#define HOSTILE_STRING(x) #x
#define HOSTILE_QUOTE(x) HOSTILE_STRING(x)

static const webimage_host *hostile_host;
static int hostile_decodes;

#if defined(HOSTILE_IN_ENTRY) || defined(HOSTILE_IN_PROBE) || defined(HOSTILE_IN_DECODE) || \
    defined(HOSTILE_IN_ENCODE) || defined(HOSTILE_IN_ANIMATION_ADD)
#if !defined(HOSTILE_HANG) && !defined(HOSTILE_ABORT)
/* Read through a volatile pointer so the compiler cannot turn the fault into a trap. */
static int *volatile hostile_nowhere;
#endif

static void misbehave(void) {
#if defined(HOSTILE_HANG)
    const struct timespec second = {.tv_sec = 1, .tv_nsec = 0};
    for (;;) nanosleep(&second, NULL);
#elif defined(HOSTILE_ABORT)
    abort();
#else
    *hostile_nowhere = 1;
#endif
}
#endif

static bool hostile_can_decode(const uint8_t *bytes, size_t size) { return size >= 4 && memcmp(bytes, "HOST", 4) == 0; }

#if defined(HOSTILE_IN_PROBE) || defined(HOSTILE_IN_DECODE)
static bool triggers(const uint8_t *bytes, size_t size) { return size >= 5 && bytes[4] == 'X'; }
#endif

static webimage_status hostile_probe(const uint8_t *bytes, size_t size, webimage_image_info *info,
                                     webimage_error *error) {
    if (!hostile_can_decode(bytes, size)) return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "no magic");
#ifdef HOSTILE_IN_PROBE
    if (triggers(bytes, size)) misbehave();
#endif
    info->format_index = 0;
    info->width = 2;
    info->height = 1;
    info->frame_count = 1;
    info->loop_count = 0;
    info->orientation = 1;
    info->bits_per_component = 8;
    info->flags = 0;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status hostile_decode(const uint8_t *bytes, size_t size, const webimage_decode_options *options,
                                      webimage_image *image, webimage_error *error) {
    (void)options;
    if (!hostile_can_decode(bytes, size)) return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "no magic");
#ifdef HOSTILE_IN_DECODE
    if (triggers(bytes, size)) misbehave();
#endif
#ifdef HOSTILE_CHATTY
    fprintf(stderr, "%s: library noise on stderr\n", HOSTILE_QUOTE(HOSTILE_NAME));
    fprintf(stderr, "%s: second line\n", HOSTILE_QUOTE(HOSTILE_NAME));
    fflush(stderr);
#endif
    uint8_t *out = hostile_host->allocate(hostile_host->context, 8, 16);
    if (out == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "allocation failed");
    hostile_decodes++;
    const uint8_t pixels[8] = {(uint8_t)hostile_decodes, 0, 0, 255, 0, 0, 255, 255};
    memcpy(out, pixels, sizeof pixels);
    image->width = 2;
    image->height = 1;
    image->pixel_format = WEBIMAGE_PIXEL_RGBA8;
    image->stride = 8;
    image->pixels = out;
    image->orientation = 1;
    image->flags = 0;
    image->source_width = 2;
    image->source_height = 1;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status hostile_encode(const webimage_image_view *view, const webimage_encode_options *options,
                                      webimage_buffer *output, webimage_error *error) {
    (void)options;
#ifdef HOSTILE_IN_ENCODE
    if (view->width == 3) misbehave();
#endif
    if (view->pixel_format != WEBIMAGE_PIXEL_RGBA8)
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "RGBA8 only");
    uint8_t *bytes = hostile_host->allocate(hostile_host->context, 8, 16);
    if (bytes == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "allocation failed");
    memcpy(bytes, "HOST", 4);
    memcpy(bytes + 4, view->pixels, 4);
    output->bytes = bytes;
    output->size = 8;
    return WEBIMAGE_STATUS_OK;
}

/* The frame-by-frame animation encoder's state: the first pixel of each frame added so far. */
struct webimage_animation_encoder {
    uint32_t width;
    uint32_t frame_count;
    uint32_t added;
    uint8_t *first_pixels;
};

static webimage_status hostile_animation_encoder_create(uint32_t width, uint32_t height, uint32_t frame_count,
                                                        const webimage_encode_options *options,
                                                        webimage_animation_encoder **encoder, webimage_error *error) {
    (void)height;
    (void)options;
    webimage_animation_encoder *created = calloc(1, sizeof(*created));
    uint8_t *first_pixels = calloc(frame_count, 4);
    if (created == NULL || first_pixels == NULL) {
        free(created);
        free(first_pixels);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "allocation failed");
    }
    created->width = width;
    created->frame_count = frame_count;
    created->first_pixels = first_pixels;
    *encoder = created;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status hostile_animation_encoder_add(webimage_animation_encoder *encoder,
                                                     const webimage_frame_view *frame, webimage_error *error) {
#ifdef HOSTILE_IN_ANIMATION_ADD
    if (frame->image.width == 3) misbehave();
#endif
    if (frame->image.pixel_format != WEBIMAGE_PIXEL_RGBA8)
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "RGBA8 only");
    if (frame->image.width != encoder->width || encoder->added == encoder->frame_count)
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "unexpected frame");
    memcpy(encoder->first_pixels + 4 * encoder->added, frame->image.pixels, 4);
    encoder->added += 1;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status hostile_animation_encoder_finish(webimage_animation_encoder *encoder, webimage_buffer *output,
                                                        webimage_error *error) {
    if (encoder->added != encoder->frame_count)
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "fewer frames than announced");
    size_t size = 8 + 4 * (size_t)encoder->added;
    uint8_t *bytes = hostile_host->allocate(hostile_host->context, size, 16);
    if (bytes == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "allocation failed");
    memcpy(bytes, "HOSTANIM", 8);
    memcpy(bytes + 8, encoder->first_pixels, 4 * (size_t)encoder->added);
    output->bytes = bytes;
    output->size = size;
    return WEBIMAGE_STATUS_OK;
}

static void hostile_animation_encoder_destroy(webimage_animation_encoder *encoder) {
    if (encoder == NULL) return;
    free(encoder->first_pixels);
    free(encoder);
}

static const webimage_format hostile_formats[] = {
    {.name = "hostile", .mime_type = "image/x-hostile", .capabilities = WEBIMAGE_CAN_DECODE | WEBIMAGE_CAN_ENCODE},
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
    .animation_encoder_create = hostile_animation_encoder_create,
    .animation_encoder_add = hostile_animation_encoder_add,
    .animation_encoder_finish = hostile_animation_encoder_finish,
    .animation_encoder_destroy = hostile_animation_encoder_destroy,
};

static const webimage_plugin_descriptor hostile_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = HOSTILE_QUOTE(HOSTILE_NAME),
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &hostile_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    hostile_host = host;
#ifdef HOSTILE_IN_ENTRY
    misbehave();
#endif
    return &hostile_descriptor;
}
