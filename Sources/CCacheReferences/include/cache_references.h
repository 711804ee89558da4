/*
 * cache_references.h — the plain C baselines the cache benchmark compares the plugins with:
 * a file written to a temporary name and renamed, a file read whole, and raw hiredis SET/GET.
 */
#ifndef WEBIMAGE_CACHE_REFERENCES_H
#define WEBIMAGE_CACHE_REFERENCES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Writes `size` bytes to `directory`/.tmp-reference, then renames it to `directory`/`name`. 0 on success. */
int cache_reference_write(const char *directory, const char *name, const uint8_t *bytes, size_t size);

/** Reads `path` whole into a malloc'd buffer (`*bytes`, `*size`); the caller frees it. 0 on success. */
int cache_reference_read(const char *path, uint8_t **bytes, size_t *size);

/** A hiredis connection; NULL when it cannot connect. */
void *cache_reference_redis_connect(const char *host, int port);
void cache_reference_redis_free(void *connection);
/** SET key value (no framing, no expiry). 0 on success. */
int cache_reference_redis_set(void *connection, const char *key, const uint8_t *bytes, size_t size);
/** GET key; the length of the value, or -1 on failure or a missing key. */
long cache_reference_redis_get(void *connection, const char *key);

#ifdef __cplusplus
}
#endif

#endif
