/* missing_entry.c — BROKEN: exports no webimage_plugin_entry, only a function with another name. */
#include "stub_coder.h"

static const webimage_plugin_descriptor stub_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "missing_entry",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &stub_coder,
};

/* Right signature, wrong name: the host's dlsym("webimage_plugin_entry") finds nothing. */
const webimage_plugin_descriptor *webimage_plugin_start(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_start(const webimage_host *host) {
    (void)host;
    return &stub_descriptor;
}
