/*
 * redis_cache_shim.h — the bundled `redis` cache: the disk cache kind on a Redis server
 * (hiredis), for a fleet of hosts sharing one cache.
 */
#ifndef WEBIMAGE_REDIS_CACHE_SHIM_H
#define WEBIMAGE_REDIS_CACHE_SHIM_H

#include "webimage_plugin.h"

/* Every function declared here is hidden: the plugin library exports only
 * webimage_plugin_entry, so no other library or executable binds to these. */
#pragma GCC visibility push(hidden)

#ifdef __cplusplus
extern "C" {
#endif

/** The redis cache table; `host` provides the allocator and the log and must outlive the process. */
const webimage_disk_cache *_Nonnull redis_cache_table(const webimage_host *_Nonnull host);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* WEBIMAGE_REDIS_CACHE_SHIM_H */
