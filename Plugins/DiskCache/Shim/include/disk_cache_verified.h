/*
 * disk_cache_verified.h — the entry files whose checksum this process has already verified (or
 * written), so that a read of an unchanged file need not hash its bytes again. Internal to the
 * disk cache; declared here so that the tests can drive it with chosen file identities.
 */
#ifndef WEBIMAGE_DISK_CACHE_VERIFIED_H
#define WEBIMAGE_DISK_CACHE_VERIFIED_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

/* Every function declared here is hidden: the plugin library exports only
 * webimage_plugin_entry, so no other library or executable binds to these. */
#pragma GCC visibility push(hidden)

#ifdef __cplusplus
extern "C" {
#endif

/** The verified files of one folder; see disk_cache_verified.c. */
typedef struct disk_cache_verified disk_cache_verified;

/** The events counted on a name's set when it was looked up, compared at insert. */
typedef struct disk_cache_verified_ticket {
    uint32_t epoch;
    uint32_t moves_in;
    uint32_t other_events;
} disk_cache_verified_ticket;

/** Watches the folder `path`; NULL when inotify is unavailable (then every read hashes). */
disk_cache_verified *_Nullable disk_cache_verified_open(const char *_Nonnull path);
void disk_cache_verified_close(disk_cache_verified *_Nullable verified);

/**
 * Whether the file `name` of the folder, as `status` describes it, is one this process verified
 * and no event has named since; fills `ticket` either way. False when `verified` is NULL.
 */
bool disk_cache_verified_lookup(disk_cache_verified *_Nullable verified, const char *_Nonnull name,
                                const struct stat *_Nonnull status, disk_cache_verified_ticket *_Nonnull ticket);

/** The ticket of `name` now, for an insert after the caller's own write (no lookup). */
disk_cache_verified_ticket disk_cache_verified_ticket_of(disk_cache_verified *_Nullable verified,
                                                         const char *_Nonnull name);

/**
 * Records `name` as `status` describes it as verified, unless an event fell on its set since
 * `ticket` other than `own_renames` renames into place (1 after the caller's own write, else 0).
 */
void disk_cache_verified_insert(disk_cache_verified *_Nullable verified, const char *_Nonnull name,
                                const struct stat *_Nonnull status, disk_cache_verified_ticket ticket,
                                uint32_t own_renames);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* WEBIMAGE_DISK_CACHE_VERIFIED_H */
