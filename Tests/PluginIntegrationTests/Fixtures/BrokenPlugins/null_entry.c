/* null_entry.c — BROKEN: webimage_plugin_entry returns NULL (the plugin refuses to run). */
#include "stub_coder.h"

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
