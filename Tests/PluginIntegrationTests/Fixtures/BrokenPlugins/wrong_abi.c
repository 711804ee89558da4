/* wrong_abi.c — BROKEN: the descriptor declares ABI version 99, which no host supports. */
#include "stub_coder.h"

static const webimage_plugin_descriptor stub_descriptor = {
    .abi_version = 99,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "wrong_abi",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &stub_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    (void)host;
    return &stub_descriptor;
}
