/* The webimage_disk_cache table of the bundled `disk` plugin. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk_cache_internal.h"

/* Set by disk_cache_table, which the host may call from several threads (always with the same
   host): an atomic pointer, so those calls and the readers do not race. */
const webimage_host *_Atomic disk_cache_host;

/** mkdir -p */
static webimage_status make_directories(const char *path, webimage_error *error) {
    char *copy = strdup(path);
    if (!copy) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    for (char *slash = copy + 1;; slash++) {
        bool end = *slash == '\0';
        if (*slash == '/' || end) {
            *slash = '\0';
            if (mkdir(copy, 0755) != 0 && errno != EEXIST) {
                webimage_status status = webimage_failf(
                    error, WEBIMAGE_STATUS_IO_ERROR, "cannot create the cache directory %s: %s", copy, strerror(errno));
                free(copy);
                return status;
            }
            if (end) break;
            *slash = '/';
        }
    }
    free(copy);
    struct stat status;
    if (stat(path, &status) != 0 || !S_ISDIR(status.st_mode))
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "the cache directory %s is not a folder", path);
    return WEBIMAGE_STATUS_OK;
}

static void close_cache(disk_cache *cache) {
    if (!cache) return;
    if (cache->directory_fd >= 0) close(cache->directory_fd);
    if (cache->lock_fd >= 0) close(cache->lock_fd);
    if (cache->index_fd >= 0) close(cache->index_fd);
    disk_cache_verified_close(cache->verified);
    while (cache->inflight) {
        disk_cache_inflight *next = cache->inflight->next;
        free(cache->inflight);
        cache->inflight = next;
    }
    pthread_mutex_destroy(&cache->lock_mutex);
    pthread_mutex_destroy(&cache->inflight_mutex);
    disk_cache_config_free(&cache->config);
    free(cache->path);
    free(cache);
}

/** Moves the folder `from` to `to` when `to` does not exist yet. */
static webimage_status migrate(const char *from, const char *to, webimage_error *error) {
    struct stat status;
    if (stat(to, &status) == 0 || stat(from, &status) != 0 || !S_ISDIR(status.st_mode)) return WEBIMAGE_STATUS_OK;
    if (rename(from, to) != 0)
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot move the old cache %s to %s: %s", from, to,
                              strerror(errno));
    return WEBIMAGE_STATUS_OK;
}

static webimage_status open_cache(const webimage_config *config, disk_cache **out, webimage_error *error) {
    *out = NULL;
    disk_cache *cache = calloc(1, sizeof(*cache));
    if (!cache) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    pthread_mutex_init(&cache->lock_mutex, NULL);
    pthread_mutex_init(&cache->inflight_mutex, NULL);
    cache->directory_fd = cache->lock_fd = cache->index_fd = -1;
    webimage_status status = disk_cache_config_parse(config, &cache->config, error);
    if (status == WEBIMAGE_STATUS_OK) status = make_directories(cache->config.root, error);
    if (status == WEBIMAGE_STATUS_OK &&
        asprintf(&cache->path, "%s/%s", cache->config.root, cache->config.namespace_name) < 0) {
        cache->path = NULL;
        status = webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if (status == WEBIMAGE_STATUS_OK && cache->config.migrate_from)
        status = migrate(cache->config.migrate_from, cache->path, error);
    if (status == WEBIMAGE_STATUS_OK) status = make_directories(cache->path, error);
    if (status == WEBIMAGE_STATUS_OK) {
        cache->directory_fd = open(cache->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (cache->directory_fd >= 0)
            cache->lock_fd = openat(cache->directory_fd, ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (cache->lock_fd >= 0)
            cache->index_fd = openat(cache->directory_fd, ".index", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        else if (cache->directory_fd >= 0 && (errno == EROFS || errno == EACCES)) cache->read_only = true;
        if (cache->index_fd < 0 && !cache->read_only)
            status = webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot open the cache directory %s: %s",
                                    cache->path, strerror(errno));
    }
    if (status == WEBIMAGE_STATUS_OK) cache->verified = disk_cache_verified_open(cache->path);
    if (status == WEBIMAGE_STATUS_OK && !cache->read_only) status = disk_cache_lock(cache, error);
    if (status == WEBIMAGE_STATUS_OK && !cache->read_only) {
        status = disk_cache_rescan(cache, error);
        disk_cache_unlock(cache);
    }
    if (status != WEBIMAGE_STATUS_OK) {
        close_cache(cache);
        return status;
    }
    *out = cache;
    return WEBIMAGE_STATUS_OK;
}

static webimage_status name_of(const char *key, size_t key_length, char *name, webimage_error *error) {
    return disk_cache_file_name(key, key_length, name, DISK_CACHE_NAME_CAPACITY, error);
}

static webimage_status read_entry(disk_cache *cache, const char *key, size_t key_length, webimage_buffer *data,
                                  webimage_buffer *extended, webimage_error *error) {
    char name[DISK_CACHE_NAME_CAPACITY];
    webimage_status status = name_of(key, key_length, name, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    status = disk_cache_read_entry(cache, cache->directory_fd, !cache->read_only, name, data, extended, error);
    for (size_t i = 0; status == WEBIMAGE_STATUS_NOT_FOUND && i < cache->config.read_only_count; i++) {
        int directory_fd = open(cache->config.read_only_paths[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory_fd < 0) continue;
        status = disk_cache_read_entry(cache, directory_fd, false, name, data, extended, error);
        close(directory_fd);
    }
    return status;
}

static webimage_status write_entry(disk_cache *cache, const char *key, size_t key_length, const uint8_t *bytes,
                                   size_t size, const uint8_t *extended, size_t extended_size, webimage_error *error) {
    char name[DISK_CACHE_NAME_CAPACITY];
    if ((size > 0 && !bytes) || (extended_size > 0 && !extended))
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "NULL bytes with a non-zero size");
    webimage_status status = name_of(key, key_length, name, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    return disk_cache_write_entry(cache, name, key, key_length, bytes, size, extended, extended_size, error);
}

static webimage_status contains_entry(disk_cache *cache, const char *key, size_t key_length, bool *contains,
                                      webimage_error *error) {
    char name[DISK_CACHE_NAME_CAPACITY];
    *contains = false;
    webimage_status status = name_of(key, key_length, name, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    struct stat info;
    *contains = fstatat(cache->directory_fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(info.st_mode);
    for (size_t i = 0; !*contains && i < cache->config.read_only_count; i++) {
        char *path = NULL;
        if (asprintf(&path, "%s/%s", cache->config.read_only_paths[i], name) < 0) break;
        *contains = lstat(path, &info) == 0 && S_ISREG(info.st_mode);
        free(path);
    }
    return WEBIMAGE_STATUS_OK;
}

static webimage_status remove_entry(disk_cache *cache, const char *key, size_t key_length, webimage_error *error) {
    char name[DISK_CACHE_NAME_CAPACITY];
    webimage_status status = name_of(key, key_length, name, error);
    if (status == WEBIMAGE_STATUS_OK) status = disk_cache_lock(cache, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    struct stat info;
    if (fstatat(cache->directory_fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0) {
        status = disk_cache_mark_dirty(cache, error);
        if (status == WEBIMAGE_STATUS_OK && unlinkat(cache->directory_fd, name, 0) == 0) {
            cache->bytes -= (uint64_t)info.st_size < cache->bytes ? (uint64_t)info.st_size : cache->bytes;
            if (cache->count > 0) cache->count--;
        } else if (status == WEBIMAGE_STATUS_OK && errno != ENOENT) {
            status = webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot remove %s/%s: %s", cache->path, name,
                                    strerror(errno));
        }
    }
    disk_cache_unlock(cache);
    return status;
}

static webimage_status remove_all_entries(disk_cache *cache, webimage_error *error) {
    webimage_status status = disk_cache_lock(cache, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    status = disk_cache_mark_dirty(cache, error);
    int fd = status == WEBIMAGE_STATUS_OK ? dup(cache->directory_fd) : -1;
    DIR *directory = fd >= 0 ? fdopendir(fd) : NULL;
    if (directory) {
        rewinddir(directory);
        struct dirent *item;
        while ((item = readdir(directory)) != NULL)
            if (disk_cache_is_entry_name(item->d_name)) unlinkat(cache->directory_fd, item->d_name, 0);
        closedir(directory);
        status = disk_cache_rescan(cache, error);
    } else if (status == WEBIMAGE_STATUS_OK) {
        if (fd >= 0) close(fd);
        status = webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot read the cache directory %s: %s", cache->path,
                                strerror(errno));
    }
    disk_cache_unlock(cache);
    return status;
}

static webimage_status remove_expired_entries(disk_cache *cache, webimage_error *error) {
    webimage_status status = disk_cache_lock(cache, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    status = disk_cache_trim_locked(cache, true, error);
    disk_cache_unlock(cache);
    return status;
}

static webimage_status cache_totals(disk_cache *cache, webimage_cache_totals *totals, webimage_error *error) {
    webimage_status status = disk_cache_lock(cache, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    webimage_cache_totals filled = {
        .struct_size = sizeof(webimage_cache_totals),
        .count = cache->count,
        .bytes = cache->bytes,
        .byte_limit = cache->config.max_size,
        .count_limit = cache->config.max_count,
        .age_limit_seconds = cache->config.max_age,
    };
    disk_cache_unlock(cache);
    uint32_t size = totals->struct_size < sizeof(filled) ? totals->struct_size : (uint32_t)sizeof(filled);
    filled.struct_size = size;
    memcpy(totals, &filled, size);
    return WEBIMAGE_STATUS_OK;
}

static webimage_status entry_path(disk_cache *cache, const char *key, size_t key_length, char *path, size_t capacity,
                                  webimage_error *error) {
    char name[DISK_CACHE_NAME_CAPACITY];
    webimage_status status = name_of(key, key_length, name, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    int length = snprintf(path, capacity, "%s/%s", cache->path, name);
    if (length < 0 || (size_t)length >= capacity)
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "the path does not fit the buffer");
    return WEBIMAGE_STATUS_OK;
}

static int64_t seconds(struct timespec time) { return (int64_t)time.tv_sec; }

static webimage_status list_entries(disk_cache *cache, webimage_disk_cache_visit_fn visit, void *context,
                                    webimage_error *error) {
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
        struct stat info;
        if (!disk_cache_is_entry_name(item->d_name) ||
            fstatat(cache->directory_fd, item->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode))
            continue;
        webimage_disk_cache_item entry = {
            .struct_size = sizeof(webimage_disk_cache_item),
            .name = item->d_name,
            .size = (uint64_t)info.st_size,
            .access_time = seconds(info.st_atim),
            .modification_time = seconds(info.st_mtim),
            .creation_time =
                disk_cache_entry_time(cache->directory_fd, item->d_name, &info, DISK_CACHE_EXPIRE_CREATION) /
                1000000000,
        };
        char *key = disk_cache_entry_key(cache->directory_fd, item->d_name, &entry.key_length);
        entry.key = key;
        bool go_on = visit(context, &entry);
        free(key);
        if (!go_on) break;
    }
    closedir(directory);
    return WEBIMAGE_STATUS_OK;
}

static const webimage_disk_cache table = {
    .struct_size = sizeof(webimage_disk_cache),
    .flags = WEBIMAGE_CACHE_THREAD_SAFE,
    .open = open_cache,
    .close = close_cache,
    .read = read_entry,
    .write = write_entry,
    .contains = contains_entry,
    .remove = remove_entry,
    .remove_all = remove_all_entries,
    .remove_expired = remove_expired_entries,
    .totals = cache_totals,
    .path = entry_path,
    .list = list_entries,
};

const webimage_disk_cache *disk_cache_table(const webimage_host *host) {
    disk_cache_host = host;
    return &table;
}
