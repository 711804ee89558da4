/* unresolved_symbol.c — BROKEN: needs a symbol no library provides, so dlopen(RTLD_NOW) fails. */
#include "stub_coder.h"

/* Declared, defined nowhere: `cc -shared` links anyway, loading with RTLD_NOW fails. */
extern void webimage_symbol_that_does_not_exist(void);

static const webimage_plugin_descriptor stub_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "unresolved_symbol",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &stub_coder,
};

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    (void)host;
    webimage_symbol_that_does_not_exist();
    return &stub_descriptor;
}
