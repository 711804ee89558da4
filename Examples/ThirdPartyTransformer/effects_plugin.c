/*
 * effects_plugin.c — the WebImage plugin entry point and transformer table of a small
 * image-effects plugin: grayscale, sepia and pixelate, on RGBA8.
 *
 * A complete third-party transformer in plain C. The host makes one instance per set of
 * parameters (`--transform sepia:percent=80`), appends its key to cache keys, and calls
 * `transform` on any thread: instances are read-only after `create`, so the table is
 * declared thread-safe.
 */
#include <stdlib.h>
#include <string.h>

#include "effects.h"

/* The host's services, kept from the entry call (valid for the life of the process). */
static const webimage_host *effects_host;

static webimage_status effects_create(const char *name, const webimage_parameter *parameters, uint32_t parameter_count,
                                      webimage_transformer_instance **instance, webimage_error *error) {
    effects_settings parsed;
    webimage_status status = effects_parse(name, parameters, parameter_count, &parsed, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    effects_settings *settings = malloc(sizeof *settings);
    if (settings == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "cannot allocate a transformer");
    *settings = parsed;
    *instance = (webimage_transformer_instance *)settings;
    return WEBIMAGE_STATUS_OK;
}

static const char *effects_key(const webimage_transformer_instance *instance) {
    return ((const effects_settings *)instance)->key;
}

static webimage_status effects_transform(const webimage_transformer_instance *instance,
                                         const webimage_image_view *input, webimage_image *output,
                                         webimage_error *error) {
    if (input->pixel_format != WEBIMAGE_PIXEL_RGBA8) {
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "pixel format %u is not RGBA8",
                              input->pixel_format);
    }
    size_t stride = (size_t)input->width * 4;
    uint8_t *pixels = effects_host->allocate(effects_host->context, stride * input->height, 16);
    if (pixels == NULL) {
        return webimage_failf(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "cannot allocate %ux%u pixels", input->width,
                              input->height);
    }
    effects_apply((const effects_settings *)instance, input, pixels, stride);
    output->width = input->width;
    output->height = input->height;
    output->pixel_format = WEBIMAGE_PIXEL_RGBA8;
    output->stride = stride;
    output->pixels = pixels; /* the host owns them from here on */
    output->orientation = 1;
    return WEBIMAGE_STATUS_OK;
}

static void effects_destroy(webimage_transformer_instance *instance) { free(instance); }

/* Must match effects.json: transformer.names. */
static const char *const effects_names[] = {"grayscale", "sepia", "pixelate"};

static const webimage_transformer effects_transformer = {
    .struct_size = sizeof(webimage_transformer),
    .flags = WEBIMAGE_TRANSFORMER_THREAD_SAFE,
    .names = effects_names,
    .name_count = sizeof effects_names / sizeof effects_names[0],
    .create = effects_create,
    .key = effects_key,
    .transform = effects_transform,
    .destroy = effects_destroy,
};

/* Must match effects.json: name and version. */
static const webimage_plugin_descriptor effects_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "effects",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_TRANSFORMER,
    .transformer = &effects_transformer,
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
    effects_host = host;
    return &effects_descriptor;
}
