/*
 * The entry files whose checksum this process has already verified (or written itself), so a
 * read of an unchanged file checks its length and footer but does not hash its bytes again, as a
 * file system with checksums verifies blocks read from disk and not hits in its own cache.
 *
 * A file counts as unchanged while two things hold:
 * - its identity (device, inode, size, modification and change times) is the one recorded;
 * - no inotify event on the namespace folder fell on its name since it was recorded. Time stamps
 *   alone miss a change made within the same tick of the kernel's coarse clock (1-4 ms); the
 *   events do not: the kernel queues one before the writing call returns, and every lookup and
 *   insert reads the queue first.
 * A lookup hands out a ticket (the event counts of the name's set); the insert after a
 * successful hash, or after a write, records the file only when no event fell on the set since
 * the ticket other than the writer's own rename into place, so a change made while the bytes
 * were being hashed is never recorded as verified.
 * Entries with extended data in an xattr are always hashed (an xattr change raises no event we
 * watch). Without inotify (no instance left, or no watch) nothing is recorded and every read
 * hashes. Memory: DISK_CACHE_VERIFIED_SETS sets of DISK_CACHE_VERIFIED_WAYS records of 24 bytes
 * (8,192 files, 200 KB per open cache), chosen by the file name's hash; a new file takes an
 * empty record of its set or the one used longest ago. A record keeps a 64-bit hash of the
 * identity, not the identity itself. Events on names that are not entries (temporary files, the
 * index, the lock) are not counted: they cannot change an entry file. The event counts behind tickets are kept
 * per set, so an event on another name of the set only makes an insert give up (the file is hashed
 * again on its next read); it never makes a record count for a changed file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>
#include <xxhash.h>

#include "disk_cache_internal.h"

enum { DISK_CACHE_VERIFIED_SETS = 2048, DISK_CACHE_VERIFIED_WAYS = 4 };

/** One verified file. */
typedef struct verified_record {
    /** The file name's hash (never 0), or 0 for an empty record. */
    uint64_t name_hash;
    /** The hash of the file's identity (`identity_hash`). */
    uint64_t identity_hash;
    /** The lookup count when the record was last found or written (the least recent is replaced). */
    uint64_t last_used;
} verified_record;

/** The records of the names whose hash falls on this set, and the events that fell on those names. */
typedef struct verified_set {
    verified_record records[DISK_CACHE_VERIFIED_WAYS];
    /** Events on names of this set: renames into place, and every other kind. */
    uint32_t moves_in;
    uint32_t other_events;
} verified_set;

struct disk_cache_verified {
    pthread_mutex_t mutex;
    /** Non-blocking inotify instance watching the namespace folder. */
    int inotify_fd;
    /** Raised when the event queue overflowed (every record is forgotten). */
    uint32_t epoch;
    /** False once the folder itself was removed or moved: nothing is recorded any more. */
    bool watching;
    /** Counts lookups and inserts, for choosing the record to replace. */
    uint64_t clock;
    verified_set sets[DISK_CACHE_VERIFIED_SETS];
};

/** The events after which a name's recorded identity no longer counts. */
static const uint32_t watched_events =
    IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF;

static uint64_t name_hash(const char *name) { return XXH3_64bits(name, strlen(name)) | 1; }

static verified_set *set_of(disk_cache_verified *verified, uint64_t hash) {
    return &verified->sets[(hash >> 1) & (DISK_CACHE_VERIFIED_SETS - 1)];
}

/** The record of the name with `hash` in its set, or NULL. */
static verified_record *record_of(verified_set *set, uint64_t hash) {
    for (size_t way = 0; way < DISK_CACHE_VERIFIED_WAYS; way++) {
        if (set->records[way].name_hash == hash) return &set->records[way];
    }
    return NULL;
}

/** The record to write the name with `hash` into: its own, else an empty one, else the least recently used. */
static verified_record *record_for(verified_set *set, uint64_t hash) {
    verified_record *own = record_of(set, hash);
    if (own) return own;
    verified_record *chosen = &set->records[0];
    for (size_t way = 0; way < DISK_CACHE_VERIFIED_WAYS; way++) {
        verified_record *record = &set->records[way];
        if (record->name_hash == 0) return record;
        if (record->last_used < chosen->last_used) chosen = record;
    }
    return chosen;
}

static void forget_all(disk_cache_verified *verified) {
    for (size_t index = 0; index < DISK_CACHE_VERIFIED_SETS; index++) {
        for (size_t way = 0; way < DISK_CACHE_VERIFIED_WAYS; way++) verified->sets[index].records[way].name_hash = 0;
    }
}

/** A hash of the device, inode, size, modification and change times of `status`. */
static uint64_t identity_hash(const struct stat *status) {
    const uint64_t identity[7] = {
        (uint64_t)status->st_dev,          (uint64_t)status->st_ino,          (uint64_t)status->st_size,
        (uint64_t)status->st_mtim.tv_sec,  (uint64_t)status->st_mtim.tv_nsec, (uint64_t)status->st_ctim.tv_sec,
        (uint64_t)status->st_ctim.tv_nsec,
    };
    return XXH3_64bits(identity, sizeof(identity));
}

/** Reads every queued event: the name's record is forgotten and its set counts the event. With the mutex held. */
static void drain_events(disk_cache_verified *verified) {
    _Alignas(struct inotify_event) char buffer[sizeof(struct inotify_event) + NAME_MAX + 1];
    for (;;) {
        ssize_t length = read(verified->inotify_fd, buffer, sizeof(buffer));
        if (length <= 0) break;
        for (ssize_t offset = 0; offset < length;) {
            const struct inotify_event *event = (const struct inotify_event *)(buffer + offset);
            offset += (ssize_t)(sizeof(*event) + event->len);
            if (event->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) verified->watching = false;
            if (event->mask & (IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) {
                forget_all(verified);
                verified->epoch++;
                continue;
            }
            if (event->len == 0 || !disk_cache_is_entry_name(event->name)) continue;
            uint64_t hash = name_hash(event->name);
            verified_set *set = set_of(verified, hash);
            verified_record *record = record_of(set, hash);
            if (record) record->name_hash = 0;
            if (event->mask & IN_MOVED_TO) set->moves_in++;
            else set->other_events++;
        }
    }
}

static disk_cache_verified_ticket ticket_of(const disk_cache_verified *verified, const verified_set *set) {
    return (disk_cache_verified_ticket){verified->epoch, set->moves_in, set->other_events};
}

disk_cache_verified *disk_cache_verified_open(const char *path) {
    disk_cache_verified *verified = calloc(1, sizeof(*verified));
    if (!verified) return NULL;
    verified->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (verified->inotify_fd < 0 || inotify_add_watch(verified->inotify_fd, path, watched_events) < 0) {
        if (verified->inotify_fd >= 0) close(verified->inotify_fd);
        free(verified);
        return NULL;
    }
    pthread_mutex_init(&verified->mutex, NULL);
    verified->watching = true;
    return verified;
}

void disk_cache_verified_close(disk_cache_verified *verified) {
    if (!verified) return;
    close(verified->inotify_fd);
    pthread_mutex_destroy(&verified->mutex);
    free(verified);
}

bool disk_cache_verified_lookup(disk_cache_verified *verified, const char *name, const struct stat *status,
                                disk_cache_verified_ticket *ticket) {
    if (!verified) return false;
    uint64_t hash = name_hash(name);
    pthread_mutex_lock(&verified->mutex);
    drain_events(verified);
    verified_set *set = set_of(verified, hash);
    verified_record *record = record_of(set, hash);
    bool found = verified->watching && record && record->identity_hash == identity_hash(status);
    if (found) record->last_used = ++verified->clock;
    *ticket = ticket_of(verified, set);
    pthread_mutex_unlock(&verified->mutex);
    return found;
}

disk_cache_verified_ticket disk_cache_verified_ticket_of(disk_cache_verified *verified, const char *name) {
    if (!verified) return (disk_cache_verified_ticket){0, 0, 0};
    pthread_mutex_lock(&verified->mutex);
    drain_events(verified);
    disk_cache_verified_ticket ticket = ticket_of(verified, set_of(verified, name_hash(name)));
    pthread_mutex_unlock(&verified->mutex);
    return ticket;
}

void disk_cache_verified_insert(disk_cache_verified *verified, const char *name, const struct stat *status,
                                disk_cache_verified_ticket ticket, uint32_t own_renames) {
    if (!verified) return;
    uint64_t hash = name_hash(name);
    pthread_mutex_lock(&verified->mutex);
    drain_events(verified);
    verified_set *set = set_of(verified, hash);
    disk_cache_verified_ticket now = ticket_of(verified, set);
    if (verified->watching && now.epoch == ticket.epoch && now.other_events == ticket.other_events &&
        now.moves_in == ticket.moves_in + own_renames) {
        verified_record *record = record_for(set, hash);
        *record = (verified_record){hash, identity_hash(status), ++verified->clock};
    }
    pthread_mutex_unlock(&verified->mutex);
}
