/*
 * curl_shim.h — the curl loader plugin's C side: the webimage_loader table over
 * libcurl's multi interface, run on one I/O thread of its own.
 */
#ifndef CURL_SHIM_H
#define CURL_SHIM_H

#include "webimage_plugin.h"

/* Every function declared here is hidden: the plugin library exports only
 * webimage_plugin_entry, so no other library or executable binds to these. */
#pragma GCC visibility push(hidden)

/** The loader table (schemes http, https, file, data); lives for the life of
 * the process. */
const webimage_loader *_Nonnull curl_shim_loader(void);

/** The number of transfers started and not yet completed (for leak checks in
 * tests). */
uint64_t curl_shim_transfers_in_flight(void);

/** The number of tasks allocated and not yet freed (for leak checks in tests).
 */
uint64_t curl_shim_live_tasks(void);

#pragma GCC visibility pop

#endif /* CURL_SHIM_H */
