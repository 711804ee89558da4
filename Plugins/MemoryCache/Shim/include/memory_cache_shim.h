/*
 * memory_cache_shim.h — the bundled `memory` cache: host handles with a cost, a hash table
 * with O(1) get and set, LRU or CLOCK eviction under cost and count limits.
 */
#ifndef WEBIMAGE_MEMORY_CACHE_SHIM_H
#define WEBIMAGE_MEMORY_CACHE_SHIM_H

#include <stdint.h>

#include "webimage_plugin.h"

/* Every function declared here is hidden: the plugin library exports only
 * webimage_plugin_entry, so no other library or executable binds to these. */
#pragma GCC visibility push(hidden)

#ifdef __cplusplus
extern "C" {
#endif

/** The memory cache table. */
const webimage_memory_cache *_Nonnull memory_cache_table(void);

/**
 * The default cost limit: 15% of the memory available to the process (the cgroup's limit
 * when there is one, else physical memory), at most 768 MiB.
 */
uint64_t memory_cache_default_cost_limit(void);

/** The memory available to the process in bytes: the smaller of the cgroup limit (v2 or v1) and physical memory. */
uint64_t memory_cache_available_memory(void);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* WEBIMAGE_MEMORY_CACHE_SHIM_H */
