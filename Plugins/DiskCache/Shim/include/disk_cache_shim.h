/*
 * disk_cache_shim.h — the bundled `disk` cache: entries as files in one directory per
 * namespace, written atomically, verified on every read, with hard size and count limits
 * kept by an index shared between processes.
 */
#ifndef WEBIMAGE_DISK_CACHE_SHIM_H
#define WEBIMAGE_DISK_CACHE_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "webimage_plugin.h"

/* Every function declared here is hidden: the plugin library exports only
 * webimage_plugin_entry, so no other library or executable binds to these. */
#pragma GCC visibility push(hidden)

#ifdef __cplusplus
extern "C" {
#endif

/** The disk cache table; `host` provides the allocator and the log and must outlive the process. */
const webimage_disk_cache *_Nonnull disk_cache_table(const webimage_host *_Nonnull host);

/**
 * Writes the file name of `key` into `name`: the hex SHA-256 of the key plus the key's path
 * extension by SDWebImage's rule (the URL's path extension, else the key's; only letters,
 * digits, `-` and `_`; dropped when the name would exceed NAME_MAX). `capacity` must be at
 * least DISK_CACHE_NAME_CAPACITY.
 */
webimage_status disk_cache_file_name(const char *_Nonnull key, size_t key_length, char *_Nonnull name, size_t capacity,
                                     webimage_error *_Nonnull error);

/**
 * Entry reads on the calling thread that hashed the entry's bytes; the others found a file this
 * process had already verified or written, unchanged (for tests and benchmarks).
 */
uint64_t disk_cache_checksums_on_this_thread(void);

/** Bytes a file name needs, NUL included. */
#define DISK_CACHE_NAME_CAPACITY 256

/** Bytes of the footer that ends every entry file. */
#define DISK_CACHE_FOOTER_SIZE 32

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* WEBIMAGE_DISK_CACHE_SHIM_H */
