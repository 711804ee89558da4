/* version_mismatch.c — BROKEN: the descriptor says version "2.0.0"; its manifest says "1.0.0". */
#include "stub_coder.h"

static const webimage_plugin_descriptor stub_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "version_mismatch",
    .version = "2.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &stub_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    (void)host;
    return &stub_descriptor;
}
