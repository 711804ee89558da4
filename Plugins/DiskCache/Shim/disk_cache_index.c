/*
 * The shared index and the lock: `.lock` is locked with flock (processes) and a mutex
 * (threads of one process); `.index` holds the entry count and bytes plus a dirty flag that
 * is set before files change and cleared when the totals are written back, so a process
 * killed in between leaves a dirty index and the next locker rebuilds it by a scan.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "disk_cache_internal.h"

typedef struct index_header {
    char magic[8];
    uint32_t version;
    uint32_t dirty;
    uint64_t count;
    uint64_t bytes;
} index_header;

static const char index_magic[8] = {'W', 'I', 'M', 'C', 'I', 'D', 'X', '1'};

int64_t disk_cache_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int64_t nanoseconds(struct timespec time) { return (int64_t)time.tv_sec * 1000000000 + time.tv_nsec; }

int64_t disk_cache_entry_time(int directory_fd, const char *name, const struct stat *status, int expire_type) {
    switch (expire_type) {
    case DISK_CACHE_EXPIRE_ACCESS:
        return nanoseconds(status->st_atim);
    case DISK_CACHE_EXPIRE_CREATION: {
        struct statx extended;
        if (statx(directory_fd, name, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &extended) == 0 &&
            (extended.stx_mask & STATX_BTIME))
            return (int64_t)extended.stx_btime.tv_sec * 1000000000 + extended.stx_btime.tv_nsec;
        return nanoseconds(status->st_mtim);
    }
    default:
        return nanoseconds(status->st_mtim);
    }
}

static webimage_status write_header(disk_cache *cache, uint32_t dirty, webimage_error *error) {
    index_header header;
    memset(&header, 0, sizeof(header));
    memcpy(header.magic, index_magic, sizeof(index_magic));
    header.version = 1;
    header.dirty = dirty;
    header.count = cache->count;
    header.bytes = cache->bytes;
    if (pwrite(cache->index_fd, &header, sizeof(header), 0) != (ssize_t)sizeof(header))
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot write the cache index in %s: %s", cache->path,
                              strerror(errno));
    return WEBIMAGE_STATUS_OK;
}

webimage_status disk_cache_lock(disk_cache *cache, webimage_error *error) {
    if (cache->read_only)
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "the cache %s is read-only", cache->path);
    pthread_mutex_lock(&cache->lock_mutex);
    while (flock(cache->lock_fd, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        int code = errno;
        pthread_mutex_unlock(&cache->lock_mutex);
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot lock the cache %s: %s", cache->path,
                              strerror(code));
    }
    index_header header;
    ssize_t got = pread(cache->index_fd, &header, sizeof(header), 0);
    if (got == (ssize_t)sizeof(header) && memcmp(header.magic, index_magic, sizeof(index_magic)) == 0 &&
        header.version == 1 && header.dirty == 0) {
        cache->count = header.count;
        cache->bytes = header.bytes;
        return WEBIMAGE_STATUS_OK;
    }
    webimage_status status = disk_cache_rescan(cache, error);
    if (status != WEBIMAGE_STATUS_OK) {
        flock(cache->lock_fd, LOCK_UN);
        pthread_mutex_unlock(&cache->lock_mutex);
    }
    return status;
}

void disk_cache_unlock(disk_cache *cache) {
    char message[256];
    webimage_error ignored = {message, sizeof(message)};
    if (write_header(cache, 0, &ignored) != WEBIMAGE_STATUS_OK)
        disk_cache_host->log(disk_cache_host->context, WEBIMAGE_LOG_WARNING, message);
    flock(cache->lock_fd, LOCK_UN);
    pthread_mutex_unlock(&cache->lock_mutex);
}

webimage_status disk_cache_mark_dirty(disk_cache *cache, webimage_error *error) {
    return write_header(cache, 1, error);
}

/** One entry file seen by a scan. */
typedef struct scanned_entry {
    char *name;
    uint64_t size;
    int64_t access_time;
    int64_t expire_time;
} scanned_entry;

typedef struct scan_result {
    scanned_entry *entries;
    /** Entries in `entries` (removed ones have a NULL name). */
    size_t length;
    size_t capacity;
    /** Entry files still present. */
    size_t count;
    uint64_t bytes;
} scan_result;

static void free_scan(scan_result *scan) {
    for (size_t i = 0; i < scan->length; i++) free(scan->entries[i].name);
    free(scan->entries);
}

static bool is_orphan_temporary(const char *name) {
    if (strncmp(name, ".tmp-", 5) != 0) return false;
    char *end = NULL;
    long pid = strtol(name + 5, &end, 10);
    if (pid <= 0 || *end != '-') return false;
    if (pid == getpid()) return false;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/** Reads the directory: every entry file (with `details`, its name and times) and orphaned temporary files removed. */
static webimage_status scan(disk_cache *cache, bool details, scan_result *result, webimage_error *error) {
    memset(result, 0, sizeof(*result));
    int fd = dup(cache->directory_fd);
    DIR *directory = fd >= 0 ? fdopendir(fd) : NULL;
    if (!directory) {
        if (fd >= 0) close(fd);
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot read the cache directory %s: %s", cache->path,
                              strerror(errno));
    }
    rewinddir(directory);
    struct dirent *item;
    while ((item = readdir(directory)) != NULL) {
        if (item->d_name[0] == '.') {
            if (is_orphan_temporary(item->d_name)) unlinkat(cache->directory_fd, item->d_name, 0);
            continue;
        }
        if (!disk_cache_is_entry_name(item->d_name)) continue;
        struct stat status;
        if (fstatat(cache->directory_fd, item->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(status.st_mode))
            continue;
        result->bytes += (uint64_t)status.st_size;
        if (details) {
            if (result->length == result->capacity) {
                size_t capacity = result->capacity ? result->capacity * 2 : 256;
                scanned_entry *grown = realloc(result->entries, capacity * sizeof(scanned_entry));
                if (!grown) {
                    closedir(directory);
                    free_scan(result);
                    return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory scanning the cache");
                }
                result->entries = grown;
                result->capacity = capacity;
            }
            scanned_entry *entry = &result->entries[result->length++];
            entry->name = strdup(item->d_name);
            entry->size = (uint64_t)status.st_size;
            entry->access_time = nanoseconds(status.st_atim);
            entry->expire_time =
                disk_cache_entry_time(cache->directory_fd, item->d_name, &status, cache->config.expire_type);
        }
        result->count++;
    }
    closedir(directory);
    return WEBIMAGE_STATUS_OK;
}

webimage_status disk_cache_rescan(disk_cache *cache, webimage_error *error) {
    scan_result result;
    webimage_status status = scan(cache, false, &result, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    cache->count = result.count;
    cache->bytes = result.bytes;
    return WEBIMAGE_STATUS_OK;
}

static int by_access_time(const void *left, const void *right) {
    const scanned_entry *a = left, *b = right;
    if (a->access_time != b->access_time) return a->access_time < b->access_time ? -1 : 1;
    return strcmp(a->name, b->name);
}

static void remove_scanned(disk_cache *cache, scan_result *result, scanned_entry *entry) {
    if (!entry->name) return;
    if (unlinkat(cache->directory_fd, entry->name, 0) == 0 || errno == ENOENT) {
        result->bytes -= entry->size;
        result->count--;
    }
    free(entry->name);
    entry->name = NULL;
}

webimage_status disk_cache_trim_locked(disk_cache *cache, bool remove_expired, webimage_error *error) {
    webimage_status status = disk_cache_mark_dirty(cache, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    scan_result result;
    status = scan(cache, true, &result, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    size_t total = result.length;
    if (remove_expired && cache->config.max_age > 0) {
        int64_t oldest = disk_cache_now_ns() - (int64_t)cache->config.max_age * 1000000000;
        for (size_t i = 0; i < total; i++)
            if (result.entries[i].expire_time < oldest) remove_scanned(cache, &result, &result.entries[i]);
    }
    const disk_cache_config *config = &cache->config;
    bool over = (config->max_size > 0 && result.bytes > config->max_size) ||
                (config->max_count > 0 && result.count > config->max_count);
    if (!remove_expired || over) {
        uint64_t byte_target = (uint64_t)((double)config->max_size * config->trim_ratio);
        uint64_t count_target = (uint64_t)((double)config->max_count * config->trim_ratio);
        qsort(result.entries, total, sizeof(scanned_entry), by_access_time);
        for (size_t i = 0; i < total; i++) {
            bool bytes_fit = config->max_size == 0 || result.bytes <= byte_target;
            bool count_fits = config->max_count == 0 || result.count <= count_target;
            if (bytes_fit && count_fits) break;
            remove_scanned(cache, &result, &result.entries[i]);
        }
    }
    cache->count = result.count;
    cache->bytes = result.bytes;
    free_scan(&result);
    return WEBIMAGE_STATUS_OK;
}
