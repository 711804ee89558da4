/*
 * The webimage_disk_cache table of the bundled `redis` plugin. An entry is one string at
 * `<namespace>:<key>`: "WIR1", the extended data's length (32 bits, little endian), the
 * extended data, then the bytes, so a read is one GET; a write is one `SET key value EX ttl`.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "redis_cache_internal.h"

/* Set by redis_cache_table, which the host may call from several threads (always with the same
   host): an atomic pointer, so those calls and the readers do not race. */
const webimage_host *_Atomic redis_cache_host;

enum { frame_header_size = 8 };
static const char frame_magic[4] = {'W', 'I', 'R', '1'};

static webimage_status unreachable(webimage_error *error) {
    return webimage_fail(error, WEBIMAGE_STATUS_IO_ERROR, "the redis server does not answer");
}

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
    pthread_mutex_lock(&cache->mutex);
    (void)redis_cache_connection(cache);
    pthread_mutex_unlock(&cache->mutex);
    *out = cache;
    return WEBIMAGE_STATUS_OK;
}

/** Runs one command on `key` (`<namespace>:<key>` as its second argument) with up to two more arguments. */
static redisReply *key_command(redis_cache *cache, const char *command, const char *key, size_t key_length,
                               const char *extra, size_t extra_length, bool *out_of_memory) {
    size_t length = 0;
    char *name = full_key(cache, key, key_length, &length);
    *out_of_memory = name == NULL;
    if (!name) return NULL;
    const char *arguments[3] = {command, name, extra};
    size_t lengths[3] = {strlen(command), length, extra_length};
    pthread_mutex_lock(&cache->mutex);
    redisReply *reply = redis_cache_command(cache, extra ? 3 : 2, arguments, lengths);
    pthread_mutex_unlock(&cache->mutex);
    free(name);
    return reply;
}

static void *host_allocate(size_t size) {
    return redis_cache_host->allocate(redis_cache_host->context, size ? size : 1, 16);
}

static webimage_status read_entry(redis_cache *cache, const char *key, size_t key_length, webimage_buffer *data,
                                  webimage_buffer *extended, webimage_error *error) {
    *data = (webimage_buffer){NULL, 0};
    *extended = (webimage_buffer){NULL, 0};
    bool out_of_memory = false;
    redisReply *reply = key_command(cache, "GET", key, key_length, NULL, 0, &out_of_memory);
    if (out_of_memory) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    if (!reply) return webimage_fail(error, WEBIMAGE_STATUS_NOT_FOUND, "the redis server does not answer");
    webimage_status status = WEBIMAGE_STATUS_OK;
    if (reply->type != REDIS_REPLY_STRING) {
        status = webimage_fail(error, WEBIMAGE_STATUS_NOT_FOUND, "not in the cache");
    } else {
        uint32_t extended_length = 0;
        if (reply->len >= frame_header_size && memcmp(reply->str, frame_magic, 4) == 0) {
            const unsigned char *header = (const unsigned char *)reply->str + 4;
            extended_length = header[0] | header[1] << 8 | header[2] << 16 | (uint32_t)header[3] << 24;
        }
        if (reply->len < frame_header_size || memcmp(reply->str, frame_magic, 4) != 0 ||
            extended_length > reply->len - frame_header_size) {
            status = webimage_fail(error, WEBIMAGE_STATUS_NOT_FOUND, "an entry without the cache's framing");
        } else {
            size_t size = reply->len - frame_header_size - extended_length;
            data->bytes = host_allocate(size);
            extended->bytes = extended_length ? host_allocate(extended_length) : NULL;
            if (!data->bytes || (extended_length && !extended->bytes)) {
                status = webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
            } else {
                memcpy(extended->bytes ? extended->bytes : data->bytes, reply->str + frame_header_size,
                       extended_length);
                extended->size = extended_length;
                memcpy(data->bytes, reply->str + frame_header_size + extended_length, size);
                data->size = size;
            }
        }
    }
    freeReplyObject(reply);
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
    size_t total = frame_header_size + extended_size + size;
    if (extended_size > UINT32_MAX || (cache->config.max_value_size && total > cache->config.max_value_size))
        return webimage_failf(error, WEBIMAGE_STATUS_TOO_LARGE,
                              "an entry of %zu bytes is larger than max-value-size (%llu bytes); not stored", total,
                              (unsigned long long)cache->config.max_value_size);
    size_t name_length = 0;
    char *name = full_key(cache, key, key_length, &name_length);
    char *frame = malloc(total ? total : 1);
    if (!name || !frame) {
        free(name);
        free(frame);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(frame, frame_magic, 4);
    uint32_t length = (uint32_t)extended_size;
    unsigned char little_endian[4] = {length & 255, length >> 8 & 255, length >> 16 & 255, length >> 24};
    memcpy(frame + 4, little_endian, 4);
    if (extended_size) memcpy(frame + frame_header_size, extended, extended_size);
    if (size) memcpy(frame + frame_header_size + extended_size, bytes, size);
    char ttl[32];
    snprintf(ttl, sizeof(ttl), "%llu", (unsigned long long)cache->config.max_age);
    const char *arguments[5] = {"SET", name, frame, "EX", ttl};
    size_t lengths[5] = {3, name_length, total, 2, strlen(ttl)};
    pthread_mutex_lock(&cache->mutex);
    redisReply *reply = redis_cache_command(cache, cache->config.max_age ? 5 : 3, arguments, lengths);
    pthread_mutex_unlock(&cache->mutex);
    free(name);
    free(frame);
    if (!reply) return unreachable(error);
    webimage_status status = reply->type == REDIS_REPLY_ERROR
                                 ? webimage_failf(error, WEBIMAGE_STATUS_IO_ERROR, "SET failed: %s", reply->str)
                                 : WEBIMAGE_STATUS_OK;
    freeReplyObject(reply);
    return status;
}

static webimage_status contains_entry(redis_cache *cache, const char *key, size_t key_length, bool *contains,
                                      webimage_error *error) {
    bool out_of_memory = false;
    *contains = false;
    redisReply *reply = key_command(cache, "EXISTS", key, key_length, NULL, 0, &out_of_memory);
    if (out_of_memory) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    if (!reply) return WEBIMAGE_STATUS_OK;
    *contains = reply->type == REDIS_REPLY_INTEGER && reply->integer > 0;
    freeReplyObject(reply);
    return WEBIMAGE_STATUS_OK;
}

static webimage_status remove_entry(redis_cache *cache, const char *key, size_t key_length, webimage_error *error) {
    bool out_of_memory = false;
    redisReply *reply = key_command(cache, "UNLINK", key, key_length, NULL, 0, &out_of_memory);
    if (out_of_memory) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    if (!reply) return unreachable(error);
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
            status = unreachable(error);
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
        if (!go_on) break;
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
            redis_cache_fault(cache, "STRLEN/TTL failed");
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
                                             .creation_time = items->now - age};
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
};

const webimage_disk_cache *redis_cache_table(const webimage_host *host) {
    redis_cache_host = host;
    return &table;
}
