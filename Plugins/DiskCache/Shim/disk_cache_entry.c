/*
 * Entry files: the bytes, then the extended data when the file system refuses it as an
 * xattr, then a 32-byte footer (magic, lengths, XXH3 checksum of bytes and extended data).
 * The key is an xattr too, for listing only (never read back to serve an entry).
 * Written to a temporary file in the same directory and renamed into place; verified on
 * every read (the checksum once per file version and process, see disk_cache_verified.c), and
 * removed when they fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <xxhash.h>
#if defined(__x86_64__)
/* libxxhash's runtime dispatch picks the AVX2 or AVX-512 loop when the CPU has it (twice as fast
   as the SSE2 default on 256 KB); the hash values are the same. */
#include <xxh_x86dispatch.h>
#define checksum_xxh3 XXH3_64bits_dispatch
#define checksum_xxh3_seeded XXH3_64bits_withSeed_dispatch
#else
#define checksum_xxh3 XXH3_64bits
#define checksum_xxh3_seeded XXH3_64bits_withSeed
#endif

#include "disk_cache_internal.h"

/** Bits of entry_footer.flags. */
enum { extended_inline = 1, extended_in_xattr = 2 };

typedef struct entry_footer {
    char magic[4];
    uint8_t version;
    uint8_t flags;
    uint16_t reserved;
    uint64_t payload_length;
    uint64_t extended_length;
    uint64_t checksum;
} entry_footer;

_Static_assert(sizeof(entry_footer) == DISK_CACHE_FOOTER_SIZE, "footer size");

static const char footer_magic[4] = {'W', 'I', 'M', 'C'};
/** The footer's version: 2 since transformed images are stored under keys no URL spells (a
    version 1 entry may be a transformed image under the key of another URL). */
enum { footer_version = 2 };
/** The reason of an entry whose footer has an earlier version: removed without a warning. */
static const char earlier_format[] = "written by an earlier cache format";
static const char extended_attribute[] = "user.webimage.extended";
static const char key_attribute[] = "user.webimage.key";

static uint64_t checksum(const uint8_t *bytes, size_t size, const uint8_t *extended, size_t extended_size) {
    XXH64_hash_t hash = checksum_xxh3(bytes, size);
    if (extended_size > 0) hash = checksum_xxh3_seeded(extended, extended_size, hash);
    return hash;
}

/* ---------------------------------------------------------------- coalescing */
static uint64_t inflight_begin(disk_cache *cache, const char *name) {
    pthread_mutex_lock(&cache->inflight_mutex);
    uint64_t generation = ++cache->next_generation;
    disk_cache_inflight *node = cache->inflight;
    while (node && strcmp(node->name, name) != 0) node = node->next;
    if (!node) {
        node = calloc(1, sizeof(*node));
        if (node) {
            snprintf(node->name, sizeof(node->name), "%s", name);
            node->next = cache->inflight;
            cache->inflight = node;
        }
    }
    if (node) {
        node->generation = generation;
        node->writers++;
    }
    pthread_mutex_unlock(&cache->inflight_mutex);
    return generation;
}

/** True when a later write of the same name started after `generation`: this one is dropped for it. */
static bool inflight_superseded(disk_cache *cache, const char *name, uint64_t generation) {
    pthread_mutex_lock(&cache->inflight_mutex);
    disk_cache_inflight *node = cache->inflight;
    while (node && strcmp(node->name, name) != 0) node = node->next;
    bool superseded = node && node->generation != generation;
    pthread_mutex_unlock(&cache->inflight_mutex);
    return superseded;
}

static void inflight_end(disk_cache *cache, const char *name) {
    pthread_mutex_lock(&cache->inflight_mutex);
    disk_cache_inflight **link = &cache->inflight;
    while (*link && strcmp((*link)->name, name) != 0) link = &(*link)->next;
    if (*link && --(*link)->writers == 0) {
        disk_cache_inflight *node = *link;
        *link = node->next;
        free(node);
    }
    pthread_mutex_unlock(&cache->inflight_mutex);
}

/* ---------------------------------------------------------------- writing */
static bool write_vectors(int fd, struct iovec *vectors, int count) {
    while (count > 0) {
        ssize_t written = writev(fd, vectors, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        size_t left = (size_t)written;
        while (count > 0 && left >= vectors->iov_len) {
            left -= vectors->iov_len;
            vectors++;
            count--;
        }
        if (count > 0) {
            vectors->iov_base = (uint8_t *)vectors->iov_base + left;
            vectors->iov_len -= left;
        }
    }
    return true;
}

/**
 * Writes the temporary file `temporary`; returns its size through `file_size`, and through
 * `in_xattr` whether its extended data went to the xattr.
 */
static webimage_status write_temporary(disk_cache *cache, const char *temporary, const char *key, size_t key_length,
                                       const uint8_t *bytes, size_t size, const uint8_t *extended, size_t extended_size,
                                       uint64_t *file_size, bool *in_xattr, webimage_error *error) {
    int fd = openat(cache->directory_fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot create a file in %s: %s", cache->path,
                              strerror(errno));
    /* A file system that refuses it (or a key longer than it keeps) leaves the key unknown to `list`. */
    if (cache->config.use_xattr) (void)fsetxattr(fd, key_attribute, key, key_length, 0);
    entry_footer footer;
    memset(&footer, 0, sizeof(footer));
    memcpy(footer.magic, footer_magic, sizeof(footer_magic));
    footer.version = footer_version;
    footer.payload_length = size;
    footer.extended_length = extended_size;
    footer.checksum = checksum(bytes, size, extended, extended_size);
    if (extended_size > 0) {
        bool stored = cache->config.use_xattr && fsetxattr(fd, extended_attribute, extended, extended_size, 0) == 0;
        footer.flags = stored ? extended_in_xattr : extended_inline;
    }
    struct iovec vectors[3];
    int count = 0;
    if (size > 0) vectors[count++] = (struct iovec){(void *)bytes, size};
    if (footer.flags == extended_inline) vectors[count++] = (struct iovec){(void *)extended, extended_size};
    vectors[count++] = (struct iovec){&footer, sizeof(footer)};
    bool written = write_vectors(fd, vectors, count);
    int code = errno;
    if (close(fd) != 0 && written) {
        written = false;
        code = errno;
    }
    if (!written) {
        unlinkat(cache->directory_fd, temporary, 0);
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot write a cache entry in %s: %s", cache->path,
                              strerror(code));
    }
    *file_size = size + (footer.flags == extended_inline ? extended_size : 0) + sizeof(footer);
    *in_xattr = footer.flags == extended_in_xattr;
    return WEBIMAGE_STATUS_OK;
}

/** Size of `name` when it exists, else 0 with `exists` false. */
static uint64_t existing_size(disk_cache *cache, const char *name, bool *exists) {
    struct stat status;
    *exists = fstatat(cache->directory_fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(status.st_mode);
    return *exists ? (uint64_t)status.st_size : 0;
}

static bool over_limits(const disk_cache_config *config, uint64_t bytes, uint64_t count) {
    return (config->max_size > 0 && bytes > config->max_size) || (config->max_count > 0 && count > config->max_count);
}

webimage_status disk_cache_write_entry(disk_cache *cache, const char *name, const char *key, size_t key_length,
                                       const uint8_t *bytes, size_t size, const uint8_t *extended, size_t extended_size,
                                       webimage_error *error) {
    uint64_t generation = inflight_begin(cache, name);
    char temporary[64];
    unsigned long long serial = atomic_fetch_add(&cache->temporary_counter, 1);
    snprintf(temporary, sizeof(temporary), ".tmp-%ld-%llu", (long)getpid(), serial);
    uint64_t file_size = 0;
    bool in_xattr = false;
    webimage_status status = write_temporary(cache, temporary, key, key_length, bytes, size, extended, extended_size,
                                             &file_size, &in_xattr, error);
    if (status != WEBIMAGE_STATUS_OK) {
        inflight_end(cache, name);
        return status;
    }
    status = disk_cache_lock(cache, error);
    if (status != WEBIMAGE_STATUS_OK) {
        unlinkat(cache->directory_fd, temporary, 0);
        inflight_end(cache, name);
        return status;
    }
    if (inflight_superseded(cache, name, generation)) {
        unlinkat(cache->directory_fd, temporary, 0);
        disk_cache_unlock(cache);
        inflight_end(cache, name);
        return WEBIMAGE_STATUS_OK;
    }
    status = disk_cache_mark_dirty(cache, error);
    bool exists = false;
    uint64_t old_size = existing_size(cache, name, &exists);
    if (status == WEBIMAGE_STATUS_OK &&
        over_limits(&cache->config, cache->bytes - old_size + file_size, cache->count - (exists ? 1 : 0) + 1)) {
        status = disk_cache_trim_locked(cache, false, error);
        old_size = existing_size(cache, name, &exists);
    }
    disk_cache_verified_ticket ticket = disk_cache_verified_ticket_of(cache->verified, name);
    if (status == WEBIMAGE_STATUS_OK && renameat(cache->directory_fd, temporary, cache->directory_fd, name) != 0)
        status = webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot rename a cache entry into place in %s: %s",
                                cache->path, strerror(errno));
    if (status == WEBIMAGE_STATUS_OK) {
        cache->bytes = cache->bytes - old_size + file_size;
        cache->count = cache->count - (exists ? 1 : 0) + 1;
        /* The rename sets the change time: the identity recorded is the one after it. */
        struct stat written;
        if (!in_xattr && fstatat(cache->directory_fd, name, &written, AT_SYMLINK_NOFOLLOW) == 0)
            disk_cache_verified_insert(cache->verified, name, &written, ticket, 1);
    } else {
        unlinkat(cache->directory_fd, temporary, 0);
    }
    disk_cache_unlock(cache);
    inflight_end(cache, name);
    return status;
}

char *disk_cache_entry_key(int directory_fd, const char *name, size_t *length) {
    *length = 0;
    int fd = openat(directory_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return NULL;
    ssize_t size = fgetxattr(fd, key_attribute, NULL, 0);
    char *key = size >= 0 ? malloc((size_t)size + 1) : NULL;
    ssize_t got = key ? fgetxattr(fd, key_attribute, key, (size_t)size) : -1;
    close(fd);
    if (got < 0 || got > size) {
        free(key);
        return NULL;
    }
    key[got] = 0;
    *length = (size_t)got;
    return key;
}

/* ---------------------------------------------------------------- reading */
/*
 * Buffers of a page or more start on a page boundary. The kernel copies a read from page-cache
 * pages, which start on one; a destination 8-24 bytes past a page boundary (where a fresh
 * mmapped heap block starts: page + 16) made that copy 3.7-5x slower on the team's AMD EPYC
 * machines (stores just ahead of the loads at the same page offset), 100 us instead of 27 us
 * per 256 KB read. See docs/performance.md, "Caches".
 */
enum { page_alignment = 4096 };

static void *host_allocate(size_t size) {
    return disk_cache_host->allocate(disk_cache_host->context, size ? size : 1,
                                     size >= page_alignment ? page_alignment : 16);
}

static void host_free(webimage_buffer *buffer) {
    if (buffer->bytes) disk_cache_host->deallocate(disk_cache_host->context, buffer->bytes);
    buffer->bytes = NULL;
    buffer->size = 0;
}

/** Removes `name` when it is still the file `status` describes (a newer write may have replaced it). */
static void remove_if_unchanged(disk_cache *cache, const char *name, const struct stat *status) {
    char message[256];
    webimage_error ignored = {message, sizeof(message)};
    if (disk_cache_lock(cache, &ignored) != WEBIMAGE_STATUS_OK) return;
    struct stat current;
    if (fstatat(cache->directory_fd, name, &current, AT_SYMLINK_NOFOLLOW) == 0 && current.st_ino == status->st_ino &&
        current.st_dev == status->st_dev && disk_cache_mark_dirty(cache, &ignored) == WEBIMAGE_STATUS_OK &&
        unlinkat(cache->directory_fd, name, 0) == 0) {
        /* A damaged file's size is not the size it was counted with: count again. */
        (void)disk_cache_rescan(cache, &ignored);
    }
    disk_cache_unlock(cache);
}

static _Thread_local uint64_t checksums_on_this_thread;

uint64_t disk_cache_checksums_on_this_thread(void) { return checksums_on_this_thread; }

/**
 * Checks the bytes read against the footer; fills `extended`. The checksum is skipped when
 * `already_verified` and the extended data is not in the xattr; `hashed` tells whether it ran.
 * Returns a reason, or NULL when the entry is sound.
 */
static const char *verify(int fd, const entry_footer *footer, webimage_buffer *data, uint64_t stored,
                          webimage_buffer *extended, bool already_verified, bool *hashed) {
    if (memcmp(footer->magic, footer_magic, sizeof(footer_magic)) != 0 || footer->version > footer_version)
        return "no entry footer";
    if (footer->version < footer_version) return earlier_format;
    uint64_t inline_extended = footer->flags == extended_inline ? footer->extended_length : 0;
    if (footer->flags > extended_in_xattr || (footer->flags == 0 && footer->extended_length != 0))
        return "unknown footer flags";
    if (footer->payload_length > stored || stored - footer->payload_length != inline_extended)
        return "length does not match the footer";
    if (footer->extended_length > 0) {
        extended->bytes = host_allocate(footer->extended_length);
        if (!extended->bytes) return "out of memory";
        extended->size = footer->extended_length;
        if (footer->flags == extended_inline) {
            memcpy(extended->bytes, data->bytes + footer->payload_length, footer->extended_length);
        } else if (fgetxattr(fd, extended_attribute, extended->bytes, footer->extended_length) !=
                   (ssize_t)footer->extended_length) {
            return "extended data missing";
        }
    }
    data->size = footer->payload_length;
    *hashed = !already_verified || footer->flags == extended_in_xattr;
    if (!*hashed) return NULL;
    checksums_on_this_thread++;
    if (checksum(data->bytes, data->size, extended->bytes, extended->size) != footer->checksum)
        return "checksum mismatch";
    return NULL;
}

webimage_status disk_cache_read_entry(disk_cache *cache, int directory_fd, bool writable, const char *name,
                                      webimage_buffer *data, webimage_buffer *extended, webimage_error *error) {
    *data = (webimage_buffer){NULL, 0};
    *extended = (webimage_buffer){NULL, 0};
    int fd = openat(directory_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT) return webimage_fail(error, WEBIMAGE_STATUS_NOT_FOUND, "not in the cache");
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cannot open cache entry %s: %s", name, strerror(errno));
    }
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        close(fd);
        return webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "cache entry %s is not a regular file", name);
    }
    const char *reason = NULL;
    entry_footer footer;
    uint64_t stored = 0;
    /* Only the namespace folder is watched; read-only folders are always hashed. */
    disk_cache_verified *verified = directory_fd == cache->directory_fd ? cache->verified : NULL;
    disk_cache_verified_ticket ticket;
    bool already_verified = disk_cache_verified_lookup(verified, name, &status, &ticket);
    bool hashed = false;
    if ((uint64_t)status.st_size < sizeof(footer)) {
        reason = "shorter than its footer";
    } else {
        stored = (uint64_t)status.st_size - sizeof(footer);
        data->bytes = host_allocate(stored);
        if (!data->bytes) {
            close(fd);
            return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory reading a cache entry");
        }
        struct iovec vectors[2] = {{data->bytes, stored}, {&footer, sizeof(footer)}};
        ssize_t got = preadv(fd, vectors, 2, 0);
        if (got != status.st_size) reason = "shorter than its length";
        else reason = verify(fd, &footer, data, stored, extended, already_verified, &hashed);
    }
    if (!reason && hashed && footer.flags != extended_in_xattr)
        disk_cache_verified_insert(verified, name, &status, ticket, 0);
    if (reason == earlier_format) {
        close(fd);
        host_free(data);
        host_free(extended);
        if (writable) remove_if_unchanged(cache, name, &status);
        return webimage_fail(error, WEBIMAGE_STATUS_NOT_FOUND, earlier_format);
    }
    if (!reason && cache->config.max_age > 0 &&
        disk_cache_entry_time(directory_fd, name, &status, cache->config.expire_type) <
            disk_cache_now_ns() - (int64_t)cache->config.max_age * 1000000000) {
        close(fd);
        host_free(data);
        host_free(extended);
        if (writable) remove_if_unchanged(cache, name, &status);
        return webimage_fail(error, WEBIMAGE_STATUS_NOT_FOUND, "expired");
    }
    if (reason) {
        close(fd);
        host_free(data);
        host_free(extended);
        char message[512];
        snprintf(message, sizeof(message), "disk cache: removed entry %s/%s: %s", cache->path, name, reason);
        disk_cache_host->log(disk_cache_host->context, WEBIMAGE_LOG_WARNING, message);
        if (writable) remove_if_unchanged(cache, name, &status);
        return webimage_failf(error, WEBIMAGE_STATUS_NOT_FOUND, "corrupt entry removed: %s", reason);
    }
    /* The access time is the cache's own (relatime would not keep it), to the second: an entry
       read again within a second is not written again. */
    if (writable &&
        disk_cache_now_ns() - ((int64_t)status.st_atim.tv_sec * 1000000000 + status.st_atim.tv_nsec) > 1000000000) {
        const struct timespec times[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}};
        /* Setting a time also sets the change time: record the file's new identity. */
        if (futimens(fd, times) == 0 && footer.flags != extended_in_xattr && fstat(fd, &status) == 0)
            disk_cache_verified_insert(verified, name, &status, ticket, 0);
    }
    close(fd);
    return WEBIMAGE_STATUS_OK;
}
