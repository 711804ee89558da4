/* format_mismatch.c — BROKEN: the coder names its format "not-fixture"; its manifest lists "fixture". */
#define STUB_FORMAT_NAME "not-fixture"
#include "stub_coder.h"

static const webimage_plugin_descriptor stub_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "format_mismatch",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &stub_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    (void)host;
    return &stub_descriptor;
}
