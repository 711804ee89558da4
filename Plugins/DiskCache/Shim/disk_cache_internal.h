/* Internal declarations shared by the disk cache's C files. */
#ifndef WEBIMAGE_DISK_CACHE_INTERNAL_H
#define WEBIMAGE_DISK_CACHE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "disk_cache_shim.h"
#include "disk_cache_verified.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/** What an entry's age is measured from (SDWebImage's expireType). */
enum disk_cache_expire_type { DISK_CACHE_EXPIRE_ACCESS, DISK_CACHE_EXPIRE_MODIFICATION, DISK_CACHE_EXPIRE_CREATION };

/** The parsed configuration. */
typedef struct disk_cache_config {
    char *root;
    char *namespace_name;
    uint64_t max_size;
    uint64_t max_count;
    uint64_t max_age;
    int expire_type;
    double trim_ratio;
    char **read_only_paths;
    size_t read_only_count;
    char *migrate_from;
    bool use_xattr;
} disk_cache_config;

/** A write in flight for one file name, to coalesce concurrent writes of one key. */
typedef struct disk_cache_inflight {
    struct disk_cache_inflight *next;
    char name[DISK_CACHE_NAME_CAPACITY];
    uint64_t generation;
    uint32_t writers;
} disk_cache_inflight;

struct webimage_disk_cache_instance {
    disk_cache_config config;
    /** root/namespace */
    char *path;
    int directory_fd;
    /** `.lock`, locked with flock across processes. */
    int lock_fd;
    /** `.index`: totals and a dirty flag. */
    int index_fd;
    /** Serialises the threads of this process around the flock. */
    pthread_mutex_t lock_mutex;
    pthread_mutex_t inflight_mutex;
    disk_cache_inflight *inflight;
    uint64_t next_generation;
    _Atomic uint64_t temporary_counter;
    /** Files of the namespace folder verified by this process; NULL without inotify. */
    disk_cache_verified *verified;
    /** Totals while the lock is held. */
    uint64_t count;
    uint64_t bytes;
    /** The folder refused `.lock` (a read-only mount, no write permission): entries are read
        as from a read-only path, and everything that locks (writes, removals, totals) fails. */
    bool read_only;
};

typedef struct webimage_disk_cache_instance disk_cache;

extern const webimage_host *_Atomic disk_cache_host;

/* disk_cache_config.c */
webimage_status disk_cache_config_parse(const webimage_config *config, disk_cache_config *parsed,
                                        webimage_error *error);
void disk_cache_config_free(disk_cache_config *config);

/* disk_cache_index.c: everything between lock and unlock sees consistent totals. */
webimage_status disk_cache_lock(disk_cache *cache, webimage_error *error);
/** Writes the totals back (clean) and unlocks. */
void disk_cache_unlock(disk_cache *cache);
/** Marks the index dirty before changing files, so a writer killed before unlock forces a rescan. */
webimage_status disk_cache_mark_dirty(disk_cache *cache, webimage_error *error);
/** Rescans the directory into the totals, removing temporary files whose writer process is gone. */
webimage_status disk_cache_rescan(disk_cache *cache, webimage_error *error);
/**
 * With the lock held: with `remove_expired`, removes entries older than the age limit and then
 * trims only when over a limit (SDWebImage's removeExpiredData); without, trims. Trimming
 * removes least recently accessed entries until the totals are at most the limits times the
 * trim ratio.
 */
webimage_status disk_cache_trim_locked(disk_cache *cache, bool remove_expired, webimage_error *error);
/** True for a file name the cache wrote as an entry. */
bool disk_cache_is_entry_name(const char *name);
/** An entry's time of the configured expire type, in nanoseconds since the epoch. */
int64_t disk_cache_entry_time(int directory_fd, const char *name, const struct stat *status, int expire_type);
int64_t disk_cache_now_ns(void);

/* disk_cache_entry.c */
/** Writes the entry `name` of `key` (the key goes into an xattr when the cache uses them and the file system keeps them). */
webimage_status disk_cache_write_entry(disk_cache *cache, const char *name, const char *key, size_t key_length,
                                       const uint8_t *bytes, size_t size, const uint8_t *extended, size_t extended_size,
                                       webimage_error *error);
/** The key stored with the entry `name` (malloc'd, `length` bytes plus a NUL), or NULL when it has none. */
char *disk_cache_entry_key(int directory_fd, const char *name, size_t *length);
webimage_status disk_cache_read_entry(disk_cache *cache, int directory_fd, bool writable, const char *name,
                                      webimage_buffer *data, webimage_buffer *extended, webimage_error *error);

#pragma GCC visibility pop

#endif
