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
 * A lookup hands out a ticket (the event counts of the name's slot); the insert after a
 * successful hash, or after a write, records the file only when no event fell on the slot since
 * the ticket other than the writer's own rename into place, so a change made while the bytes
 * were being hashed is never recorded as verified.
 * Entries with extended data in an xattr are always hashed (an xattr change raises no event we
 * watch). Without inotify (no instance left, or no watch) nothing is recorded and every read
 * hashes. Memory: DISK_CACHE_VERIFIED_SLOTS slots of 72 bytes (288 KB per open cache),
 * direct-mapped by the file name's hash, a newer file replacing an older one in its slot.
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

enum { DISK_CACHE_VERIFIED_SLOTS = 4096 };

/** What a slot records of one verified file, and the events that fell on it. */
typedef struct verified_slot {
    /** The file name's hash (never 0), or 0 for an empty slot. */
    uint64_t name_hash;
    dev_t device;
    ino_t inode;
    off_t size;
    struct timespec modified;
    struct timespec changed;
    /** Events on names of this slot: renames into place, and every other kind. */
    uint32_t moves_in;
    uint32_t other_events;
} verified_slot;

struct disk_cache_verified {
    pthread_mutex_t mutex;
    /** Non-blocking inotify instance watching the namespace folder. */
    int inotify_fd;
    /** Raised when the event queue overflowed (every slot is forgotten). */
    uint32_t epoch;
    /** False once the folder itself was removed or moved: nothing is recorded any more. */
    bool watching;
    verified_slot slots[DISK_CACHE_VERIFIED_SLOTS];
};

/** The events after which a name's recorded identity no longer counts. */
static const uint32_t watched_events =
    IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF;

static uint64_t name_hash(const char *name) { return XXH3_64bits(name, strlen(name)) | 1; }

static verified_slot *slot_of(disk_cache_verified *verified, uint64_t hash) {
    return &verified->slots[hash & (DISK_CACHE_VERIFIED_SLOTS - 1)];
}

static bool same_time(struct timespec a, struct timespec b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; }

static bool same_file(const verified_slot *slot, const struct stat *status) {
    return slot->device == status->st_dev && slot->inode == status->st_ino && slot->size == status->st_size &&
           same_time(slot->modified, status->st_mtim) && same_time(slot->changed, status->st_ctim);
}

/** Reads every queued event: a slot a name falls on forgets its file and counts the event. With the mutex held. */
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
                for (size_t index = 0; index < DISK_CACHE_VERIFIED_SLOTS; index++) verified->slots[index].name_hash = 0;
                verified->epoch++;
                continue;
            }
            if (event->len == 0) continue;
            verified_slot *slot = slot_of(verified, name_hash(event->name));
            slot->name_hash = 0;
            if (event->mask & IN_MOVED_TO) slot->moves_in++;
            else slot->other_events++;
        }
    }
}

static disk_cache_verified_ticket ticket_of(const disk_cache_verified *verified, const verified_slot *slot) {
    return (disk_cache_verified_ticket){verified->epoch, slot->moves_in, slot->other_events};
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
    const verified_slot *slot = slot_of(verified, hash);
    bool found = verified->watching && slot->name_hash == hash && same_file(slot, status);
    *ticket = ticket_of(verified, slot);
    pthread_mutex_unlock(&verified->mutex);
    return found;
}

disk_cache_verified_ticket disk_cache_verified_ticket_of(disk_cache_verified *verified, const char *name) {
    if (!verified) return (disk_cache_verified_ticket){0, 0, 0};
    pthread_mutex_lock(&verified->mutex);
    drain_events(verified);
    disk_cache_verified_ticket ticket = ticket_of(verified, slot_of(verified, name_hash(name)));
    pthread_mutex_unlock(&verified->mutex);
    return ticket;
}

void disk_cache_verified_insert(disk_cache_verified *verified, const char *name, const struct stat *status,
                                disk_cache_verified_ticket ticket, uint32_t own_renames) {
    if (!verified) return;
    uint64_t hash = name_hash(name);
    pthread_mutex_lock(&verified->mutex);
    drain_events(verified);
    verified_slot *slot = slot_of(verified, hash);
    disk_cache_verified_ticket now = ticket_of(verified, slot);
    if (verified->watching && now.epoch == ticket.epoch && now.other_events == ticket.other_events &&
        now.moves_in == ticket.moves_in + own_renames) {
        slot->name_hash = hash;
        slot->device = status->st_dev;
        slot->inode = status->st_ino;
        slot->size = status->st_size;
        slot->modified = status->st_mtim;
        slot->changed = status->st_ctim;
    }
    pthread_mutex_unlock(&verified->mutex);
}
