/*
 * The webimage_disk_cache table of the bundled `redis` plugin. An entry is one string at
 * `<namespace>:<key>` holding a checked frame (redis_cache_frame.c: header, extended data,
 * bytes), so a read is one GET; a write is one `SET key value EX ttl`. A value that fails its
 * checks, or a key of another Redis type, is removed and read as a miss with the reason. A
 * lease (`claim`) is one `SET lease:<namespace>:<key> <token> NX PX ttl`, ended (`release`) or
 * extended (`renew`) by a script that deletes it or sets its time only while it holds this
 * instance's token.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "redis_cache_internal.h"

/* Set by redis_cache_table, which the host may call from several threads (always with the same
   host): an atomic pointer, so those calls and the readers do not race. */
const webimage_host *_Atomic redis_cache_host;

/** `<namespace>:<key>` in a new buffer. */
static char *full_key(redis_cache *cache, const char *key, size_t key_length, size_t *length) {
    size_t prefix = strlen(cache->config.namespace_name);
    char *result = malloc(prefix + 1 + key_length + 1);
    if (!result) return NULL;
    memcpy(result, cache->config.namespace_name, prefix);
    result[prefix] = ':';
    memcpy(result + prefix + 1, key, key_length);
    *length = prefix + 1 + key_length;
    result[*length] = '\0';
    return result;
}

static void close_cache(redis_cache *cache) {
    if (!cache) return;
    if (cache->context) redisFree(cache->context);
    pthread_mutex_destroy(&cache->mutex);
    redis_cache_config_free(&cache->config);
    free(cache);
}

static webimage_status open_cache(const webimage_config *config, redis_cache **out, webimage_error *error) {
    *out = NULL;
    redis_cache *cache = calloc(1, sizeof(*cache));
    if (!cache) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    pthread_mutex_init(&cache->mutex, NULL);
    webimage_status status = redis_cache_config_parse(config, &cache->config, error);
    if (status != WEBIMAGE_STATUS_OK) {
        close_cache(cache);
        return status;
    }
    unsigned long long nonce = 0;
    if (getrandom(&nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce)) nonce = (unsigned long long)(uintptr_t)cache;
    snprintf(cache->lease_token, sizeof(cache->lease_token), "%ld-%016llx", (long)getpid(), nonce);
    pthread_mutex_lock(&cache->mutex);
    (void)redis_cache_connection(cache);
    pthread_mutex_unlock(&cache->mutex);
    *out = cache;
    return WEBIMAGE_STATUS_OK;
}

/**
 * Runs a command with the mutex held; NULL with `*status` and `error` set (the fault's) when
 * the server does not answer.
 */
static redisReply *locked_command(redis_cache *cache, int count, const char **arguments, const size_t *lengths,
                                  webimage_status *status, webimage_error *error) {
    pthread_mutex_lock(&cache->mutex);
    redisReply *reply = redis_cache_command(cache, count, arguments, lengths);
    *status = reply ? WEBIMAGE_STATUS_OK : redis_cache_unanswered(cache, error);
    pthread_mutex_unlock(&cache->mutex);
    return reply;
}

/** Runs `command` on `<namespace>:<key>`; NULL with `*status` and `error` set when it could not run. */
static redisReply *key_command(redis_cache *cache, const char *command, const char *key, size_t key_length,
                               webimage_status *status, webimage_error *error) {
    size_t length = 0;
    char *name = full_key(cache, key, key_length, &length);
    if (!name) {
        *status = webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    const char *arguments[2] = {command, name};
    size_t lengths[2] = {strlen(command), length};
    redisReply *reply = locked_command(cache, 2, arguments, lengths, status, error);
    free(name);
    return reply;
}

static void *host_allocate(size_t size) {
    return redis_cache_host->allocate(redis_cache_host->context, size ? size : 1, 16);
}

/*
 * Removes a corrupt entry only while it is still the value that was read (`value`), or, for a
 * key of another type (`value` NULL), while it is still not a string: a good entry another
 * client wrote since the read is never removed. Returns the key's type when it was removed.
 */
static const char remove_corrupt_script[] =
    "local kind = redis.call('TYPE', KEYS[1]).ok\n"
    "local same = (#ARGV == 0 and kind ~= 'none' and kind ~= 'string')\n"
    "    or (#ARGV == 1 and kind == 'string' and redis.call('GET', KEYS[1]) == ARGV[1])\n"
    "if not same then return false end\n"
    "redis.call('UNLINK', KEYS[1])\n"
    "return kind\n";

/** Runs the removal script on `name`; true when it removed the key, with its type in `kind`. */
static bool remove_corrupt(redis_cache *cache, const char *name, size_t name_length, const char *value,
                           size_t value_length, char *kind, size_t kind_capacity) {
    const char *arguments[5] = {"EVAL", remove_corrupt_script, "1", name, value};
    size_t lengths[5] = {4, sizeof(remove_corrupt_script) - 1, 1, name_length, value_length};
    char message[256];
    webimage_error ignored = {message, sizeof(message)};
    webimage_status status = WEBIMAGE_STATUS_OK;
    redisReply *reply = locked_command(cache, value ? 5 : 4, arguments, lengths, &status, &ignored);
    bool removed = reply && reply->type == REDIS_REPLY_STRING;
    if (removed) snprintf(kind, kind_capacity, "%s", reply->str);
    if (reply) freeReplyObject(reply);
    return removed;
}

/**
 * A read that found no sound entry: removes a corrupt one (not one of a newer format) and
 * logs it; NOT_FOUND with "corrupt entry removed: <reason>" (or why it stays).
 */
static webimage_status corrupt_entry(redis_cache *cache, const char *name, size_t name_length, const redisReply *reply,
                                     redis_cache_frame_check check, webimage_error *error) {
    if (check.newer_version)
        return webimage_failf(error, WEBIMAGE_STATUS_NOT_FOUND, "%s (version %u); left in place", check.reason,
                              check.newer_version);
    bool wrong_type = reply->type != REDIS_REPLY_STRING;
    char kind[32] = "";
    bool removed = remove_corrupt(cache, name, name_length, wrong_type ? NULL : reply->str, wrong_type ? 0 : reply->len,
                                  kind, sizeof(kind));
    char reason[96];
    if (wrong_type)
        snprintf(reason, sizeof(reason), "the key holds a Redis %s, not a string", removed ? kind : "value");
    else snprintf(reason, sizeof(reason), "%s", check.reason);
    if (!removed)
        return webimage_failf(error, WEBIMAGE_STATUS_NOT_FOUND, "corrupt entry: %s; it changed since, left in place",
                              reason);
    char message[512];
    snprintf(message, sizeof(message), "redis cache %s:%d: removed entry %s: %s", cache->config.host,
             cache->config.port, name, reason);
    redis_cache_host->log(redis_cache_host->context, WEBIMAGE_LOG_WARNING, message);
    return webimage_failf(error, WEBIMAGE_STATUS_NOT_FOUND, "corrupt entry removed: %s", reason);
}

static webimage_status read_entry(redis_cache *cache, const char *key, size_t key_length, webimage_buffer *data,
                                  webimage_buffer *extended, webimage_error *error) {
    *data = (webimage_buffer){NULL, 0};
    *extended = (webimage_buffer){NULL, 0};
    size_t name_length = 0;
    char *name = full_key(cache, key, key_length, &name_length);
    if (!name) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    const char *arguments[2] = {"GET", name};
    size_t lengths[2] = {3, name_length};
    webimage_status status = WEBIMAGE_STATUS_OK;
    redisReply *reply = locked_command(cache, 2, arguments, lengths, &status, error);
    if (!reply) {
        free(name);
        return status;
    }
    redis_cache_frame frame;
    redis_cache_frame_check check = {NULL, 0};
    if (reply->type == REDIS_REPLY_NIL) {
        status = webimage_fail(error, WEBIMAGE_STATUS_NOT_FOUND, "not in the cache");
    } else if (reply->type == REDIS_REPLY_ERROR && strncmp(reply->str, "WRONGTYPE", 9) == 0) {
        status = corrupt_entry(cache, name, name_length, reply, check, error);
    } else if (reply->type != REDIS_REPLY_STRING) {
        status = webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "GET failed: %s",
                                reply->type == REDIS_REPLY_ERROR ? reply->str : "an unexpected reply");
    } else if ((check = redis_cache_frame_read(reply->str, reply->len, &frame)).reason) {
        status = corrupt_entry(cache, name, name_length, reply, check, error);
    } else {
        data->bytes = host_allocate(frame.size);
        extended->bytes = frame.extended_size ? host_allocate(frame.extended_size) : NULL;
        if (!data->bytes || (frame.extended_size && !extended->bytes)) {
            status = webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        } else {
            if (frame.extended_size) memcpy(extended->bytes, frame.extended, frame.extended_size);
            extended->size = frame.extended_size;
            if (frame.size) memcpy(data->bytes, frame.bytes, frame.size);
            data->size = frame.size;
        }
    }
    freeReplyObject(reply);
    free(name);
    if (status != WEBIMAGE_STATUS_OK) {
        if (data->bytes) redis_cache_host->deallocate(redis_cache_host->context, data->bytes);
        if (extended->bytes) redis_cache_host->deallocate(redis_cache_host->context, extended->bytes);
        *data = (webimage_buffer){NULL, 0};
        *extended = (webimage_buffer){NULL, 0};
    }
    return status;
}

static webimage_status write_entry(redis_cache *cache, const char *key, size_t key_length, const uint8_t *bytes,
                                   size_t size, const uint8_t *extended, size_t extended_size, webimage_error *error) {
    if ((size > 0 && !bytes) || (extended_size > 0 && !extended))
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "NULL bytes with a non-zero size");
    if (size > SIZE_MAX - REDIS_CACHE_FRAME_HEADER_SIZE - extended_size)
        return webimage_fail(error, WEBIMAGE_STATUS_TOO_LARGE, "an entry larger than memory; not stored");
    size_t total = REDIS_CACHE_FRAME_HEADER_SIZE + extended_size + size;
    if (cache->config.max_value_size && total > cache->config.max_value_size)
        return webimage_failf(error, WEBIMAGE_STATUS_TOO_LARGE,
                              "an entry of %zu bytes is larger than max-value-size (%llu bytes); not stored", total,
                              (unsigned long long)cache->config.max_value_size);
    size_t name_length = 0;
    char *name = full_key(cache, key, key_length, &name_length);
    char *frame = malloc(total);
    if (!name || !frame) {
        free(name);
        free(frame);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    redis_cache_frame_write(frame, bytes, size, extended, extended_size);
    char ttl[32];
    snprintf(ttl, sizeof(ttl), "%llu", (unsigned long long)cache->config.max_age);
    const char *arguments[5] = {"SET", name, frame, "EX", ttl};
    size_t lengths[5] = {3, name_length, total, 2, strlen(ttl)};
    webimage_status status = WEBIMAGE_STATUS_OK;
    redisReply *reply = locked_command(cache, cache->config.max_age ? 5 : 3, arguments, lengths, &status, error);
    free(name);
    free(frame);
    if (!reply) return status;
    if (reply->type == REDIS_REPLY_ERROR)
        status = webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "SET failed: %s", reply->str);
    freeReplyObject(reply);
    return status;
}

static webimage_status contains_entry(redis_cache *cache, const char *key, size_t key_length, bool *contains,
                                      webimage_error *error) {
    *contains = false;
    webimage_status status = WEBIMAGE_STATUS_OK;
    redisReply *reply = key_command(cache, "EXISTS", key, key_length, &status, error);
    if (!reply) return status;
    *contains = reply->type == REDIS_REPLY_INTEGER && reply->integer > 0;
    freeReplyObject(reply);
    return WEBIMAGE_STATUS_OK;
}

static webimage_status remove_entry(redis_cache *cache, const char *key, size_t key_length, webimage_error *error) {
    webimage_status status = WEBIMAGE_STATUS_OK;
    redisReply *reply = key_command(cache, "UNLINK", key, key_length, &status, error);
    if (!reply) return status;
    freeReplyObject(reply);
    return WEBIMAGE_STATUS_OK;
}

/* ---------------------------------------------------------------- leases */
/** `lease:<namespace>:<key>` in a new buffer: outside the namespace's entries and its scans. */
static char *lease_key(redis_cache *cache, const char *key, size_t key_length, size_t *length) {
    size_t entry_length = 0;
    char *entry = full_key(cache, key, key_length, &entry_length);
    if (!entry) return NULL;
    char *result = malloc(6 + entry_length + 1);
    if (result) {
        memcpy(result, "lease:", 6);
        memcpy(result + 6, entry, entry_length + 1);
        *length = 6 + entry_length;
    }
    free(entry);
    return result;
}

/**
 * Runs a command whose argument `name_index` is `lease:<namespace>:<key>`; NULL with `*status`
 * and `error` set when it could not run or Redis answered with an error.
 */
static redisReply *lease_command(redis_cache *cache, const char *key, size_t key_length, int count,
                                 const char **arguments, size_t *lengths, int name_index, webimage_status *status,
                                 webimage_error *error) {
    size_t name_length = 0;
    char *name = lease_key(cache, key, key_length, &name_length);
    if (!name) {
        *status = webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    arguments[name_index] = name;
    lengths[name_index] = name_length;
    redisReply *reply = locked_command(cache, count, arguments, lengths, status, error);
    free(name);
    if (reply && reply->type == REDIS_REPLY_ERROR) {
        *status = webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "%s of a lease failed: %s", arguments[0], reply->str);
        freeReplyObject(reply);
        return NULL;
    }
    return reply;
}

/** One `SET lease:<namespace>:<key> <token> NX PX ttl`: OK when taken, nil when held by another. */
static webimage_status claim_lease(redis_cache *cache, const char *key, size_t key_length, uint64_t ttl_ms,
                                   bool *claimed, webimage_error *error) {
    *claimed = false;
    if (ttl_ms == 0) return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "a lease of 0 ms");
    char ttl[32];
    snprintf(ttl, sizeof(ttl), "%llu", (unsigned long long)ttl_ms);
    const char *arguments[6] = {"SET", NULL, cache->lease_token, "NX", "PX", ttl};
    size_t lengths[6] = {3, 0, strlen(cache->lease_token), 2, 2, strlen(ttl)};
    webimage_status status = WEBIMAGE_STATUS_OK;
    redisReply *reply = lease_command(cache, key, key_length, 6, arguments, lengths, 1, &status, error);
    if (!reply) return status;
    *claimed = reply->type == REDIS_REPLY_STATUS;
    freeReplyObject(reply);
    return WEBIMAGE_STATUS_OK;
}

/** Deletes the lease only while it still holds this instance's token (never a lease another took over). */
static const char release_script[] = "if redis.call('GET', KEYS[1]) == ARGV[1] then\n"
                                     "    return redis.call('DEL', KEYS[1])\n"
                                     "end\n"
                                     "return 0\n";

static webimage_status release_lease(redis_cache *cache, const char *key, size_t key_length, webimage_error *error) {
    const char *arguments[5] = {"EVAL", release_script, "1", NULL, cache->lease_token};
    size_t lengths[5] = {4, sizeof(release_script) - 1, 1, 0, strlen(cache->lease_token)};
    webimage_status status = WEBIMAGE_STATUS_OK;
    redisReply *reply = lease_command(cache, key, key_length, 5, arguments, lengths, 3, &status, error);
    if (!reply) return status;
    freeReplyObject(reply);
    return WEBIMAGE_STATUS_OK;
}

/** Sets the lease's time to live only while it still holds this instance's token: 1 when it did. */
static const char renew_script[] = "if redis.call('GET', KEYS[1]) == ARGV[1] then\n"
                                   "    return redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
                                   "end\n"
                                   "return 0\n";

static webimage_status renew_lease(redis_cache *cache, const char *key, size_t key_length, uint64_t ttl_ms, bool *held,
                                   webimage_error *error) {
    *held = false;
    if (ttl_ms == 0) return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "a lease of 0 ms");
    char ttl[32];
    snprintf(ttl, sizeof(ttl), "%llu", (unsigned long long)ttl_ms);
    const char *arguments[6] = {"EVAL", renew_script, "1", NULL, cache->lease_token, ttl};
    size_t lengths[6] = {4, sizeof(renew_script) - 1, 1, 0, strlen(cache->lease_token), strlen(ttl)};
    webimage_status status = WEBIMAGE_STATUS_OK;
    redisReply *reply = lease_command(cache, key, key_length, 6, arguments, lengths, 3, &status, error);
    if (!reply) return status;
    *held = reply->type == REDIS_REPLY_INTEGER && reply->integer == 1;
    freeReplyObject(reply);
    return WEBIMAGE_STATUS_OK;
}

/* ---------------------------------------------------------------- namespace scans */
/** Called with each batch of keys SCAN returns (the mutex held); returns false to stop. */
typedef bool (*batch_fn)(redis_cache *cache, redisReply *keys, void *context);

/** SCAN over `<namespace>:*` (glob characters of the namespace escaped), batch by batch. */
static webimage_status scan_namespace(redis_cache *cache, batch_fn visit, void *context, webimage_error *error) {
    const char *space = cache->config.namespace_name;
    char *pattern = malloc(2 * strlen(space) + 3);
    if (!pattern) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    size_t length = 0;
    for (const char *c = space; *c; c++) {
        if (strchr("*?[]\\", *c)) pattern[length++] = '\\';
        pattern[length++] = *c;
    }
    memcpy(pattern + length, ":*", 3);
    char cursor[32] = "0";
    webimage_status status = WEBIMAGE_STATUS_OK;
    pthread_mutex_lock(&cache->mutex);
    do {
        const char *arguments[6] = {"SCAN", cursor, "MATCH", pattern, "COUNT", "500"};
        size_t lengths[6] = {4, strlen(cursor), 5, strlen(pattern), 5, 3};
        redisReply *reply = redis_cache_command(cache, 6, arguments, lengths);
        if (!reply) {
            status = redis_cache_unanswered(cache, error);
            break;
        }
        bool valid = reply->type == REDIS_REPLY_ARRAY && reply->elements == 2 &&
                     reply->element[0]->type == REDIS_REPLY_STRING && reply->element[1]->type == REDIS_REPLY_ARRAY &&
                     reply->element[0]->len < sizeof(cursor);
        if (!valid) {
            freeReplyObject(reply);
            status = webimage_fail(error, WEBIMAGE_STATUS_IO_ERROR, "SCAN returned an unexpected reply");
            break;
        }
        memcpy(cursor, reply->element[0]->str, reply->element[0]->len + 1);
        bool go_on = reply->element[1]->elements == 0 || visit(cache, reply->element[1], context);
        freeReplyObject(reply);
        if (!go_on) {
            /* A visit stops for its caller, or because the server stopped answering (the connection dropped). */
            if (!cache->context) status = redis_cache_unanswered(cache, error);
            break;
        }
    } while (strcmp(cursor, "0") != 0);
    pthread_mutex_unlock(&cache->mutex);
    free(pattern);
    return status;
}

static bool unlink_batch(redis_cache *cache, redisReply *keys, void *context) {
    (void)context;
    const char **arguments = malloc((keys->elements + 1) * sizeof(char *));
    size_t *lengths = malloc((keys->elements + 1) * sizeof(size_t));
    if (!arguments || !lengths) {
        free(arguments);
        free(lengths);
        return false;
    }
    arguments[0] = "UNLINK";
    lengths[0] = 6;
    for (size_t i = 0; i < keys->elements; i++) {
        arguments[i + 1] = keys->element[i]->str;
        lengths[i + 1] = keys->element[i]->len;
    }
    redisReply *reply = redis_cache_command(cache, (int)keys->elements + 1, arguments, lengths);
    free(arguments);
    free(lengths);
    if (reply) freeReplyObject(reply);
    return reply != NULL;
}

static webimage_status remove_all_entries(redis_cache *cache, webimage_error *error) {
    return scan_namespace(cache, unlink_batch, NULL, error);
}

/** Redis expires entries itself (`EX` on every SET); its `maxmemory` policy keeps the size. */
static webimage_status remove_expired_entries(redis_cache *cache, webimage_error *error) {
    (void)cache;
    (void)error;
    return WEBIMAGE_STATUS_OK;
}

/** What a visit of each key needs: STRLEN and TTL, pipelined per batch. */
typedef struct item_visit {
    webimage_cache_totals *totals;
    webimage_disk_cache_visit_fn visit;
    void *context;
    int64_t now;
} item_visit;

static bool visit_batch(redis_cache *cache, redisReply *keys, void *context) {
    item_visit *items = context;
    redisContext *connection = cache->context;
    if (!connection) return false;
    for (size_t i = 0; i < keys->elements; i++) {
        redisAppendCommand(connection, "STRLEN %b", keys->element[i]->str, keys->element[i]->len);
        redisAppendCommand(connection, "TTL %b", keys->element[i]->str, keys->element[i]->len);
    }
    size_t prefix = strlen(cache->config.namespace_name) + 1;
    for (size_t i = 0; i < keys->elements; i++) {
        redisReply *length = NULL, *ttl = NULL;
        if (redisGetReply(connection, (void **)&length) != REDIS_OK ||
            redisGetReply(connection, (void **)&ttl) != REDIS_OK) {
            if (length) freeReplyObject(length);
            redis_cache_fault(cache, connection->err == REDIS_ERR_IO ? errno : 0, "STRLEN/TTL failed");
            return false;
        }
        uint64_t size = length->type == REDIS_REPLY_INTEGER ? (uint64_t)length->integer : 0;
        if (items->totals) {
            items->totals->count++;
            items->totals->bytes += size;
        } else if (keys->element[i]->len >= prefix) {
            int64_t age = ttl->type == REDIS_REPLY_INTEGER && ttl->integer >= 0 && cache->config.max_age
                              ? (int64_t)cache->config.max_age - ttl->integer
                              : 0;
            char *name = strndup(keys->element[i]->str + prefix, keys->element[i]->len - prefix);
            webimage_disk_cache_item item = {.struct_size = sizeof(item),
                                             .name = name ? name : "",
                                             .size = size,
                                             .access_time = items->now - age,
                                             .modification_time = items->now - age,
                                             .creation_time = items->now - age,
                                             .key = name,
                                             .key_length = name ? strlen(name) : 0};
            bool go_on = items->visit(items->context, &item);
            free(name);
            if (!go_on) {
                for (size_t j = i + 1; j < keys->elements; j++) {
                    freeReplyObject(length);
                    freeReplyObject(ttl);
                    length = ttl = NULL;
                    redisGetReply(connection, (void **)&length);
                    redisGetReply(connection, (void **)&ttl);
                }
                if (length) freeReplyObject(length);
                if (ttl) freeReplyObject(ttl);
                return false;
            }
        }
        freeReplyObject(length);
        freeReplyObject(ttl);
    }
    return true;
}

static webimage_status cache_totals(redis_cache *cache, webimage_cache_totals *totals, webimage_error *error) {
    webimage_cache_totals filled = {.struct_size = sizeof(filled), .age_limit_seconds = cache->config.max_age};
    item_visit items = {.totals = &filled};
    webimage_status status = scan_namespace(cache, visit_batch, &items, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    uint32_t size = totals->struct_size < sizeof(filled) ? totals->struct_size : (uint32_t)sizeof(filled);
    filled.struct_size = size;
    memcpy(totals, &filled, size);
    return WEBIMAGE_STATUS_OK;
}

static webimage_status list_entries(redis_cache *cache, webimage_disk_cache_visit_fn visit, void *context,
                                    webimage_error *error) {
    item_visit items = {.visit = visit, .context = context, .now = (int64_t)time(NULL)};
    return scan_namespace(cache, visit_batch, &items, error);
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
    .path = NULL,
    .list = list_entries,
    .claim = claim_lease,
    .release = release_lease,
    .renew = renew_lease,
};

const webimage_disk_cache *redis_cache_table(const webimage_host *host) {
    redis_cache_host = host;
    return &table;
}
