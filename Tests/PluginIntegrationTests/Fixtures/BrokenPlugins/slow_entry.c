/* slow_entry.c — a valid coder whose entry function blocks until the test releases it, and
 * counts its calls: shows that the host opens a plugin once and holds no lock meanwhile. */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <time.h>

#include <webimage_plugin.h>

#include "stub_coder.h"

static const webimage_plugin_descriptor slow_descriptor = {
    .abi_version = WEBIMAGE_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(webimage_plugin_descriptor),
    .name = "slow_entry",
    .version = "1.0.0",
    .kinds = WEBIMAGE_KIND_CODER,
    .coder = &stub_coder,
};

static atomic_int entry_calls;
static atomic_int entry_returns;
static atomic_int released;

/* How many times the entry function was entered / has returned. */
int slow_entry_calls(void);
int slow_entry_returns(void);
/* Lets the entry function return. */
void slow_entry_release(void);

int slow_entry_calls(void) { return atomic_load(&entry_calls); }
int slow_entry_returns(void) { return atomic_load(&entry_returns); }
void slow_entry_release(void) { atomic_store(&released, 1); }

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host);

const webimage_plugin_descriptor *webimage_plugin_entry(const webimage_host *host) {
    (void)host;
    atomic_fetch_add(&entry_calls, 1);
    /* Waits for the release, at most 10 s, so a broken test cannot hang. */
    const struct timespec pause = {.tv_sec = 0, .tv_nsec = 1000000};
    for (int waited = 0; !atomic_load(&released) && waited < 10000; waited++) nanosleep(&pause, NULL);
    atomic_fetch_add(&entry_returns, 1);
    return &slow_descriptor;
}
