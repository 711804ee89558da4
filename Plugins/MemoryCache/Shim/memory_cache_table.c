/*
 * The webimage_memory_cache table of the bundled `memory` plugin: a chained hash table
 * (XXH3 of the key) plus a recency list. LRU moves a hit to the front; CLOCK (second chance)
 * only marks it, and eviction gives marked entries one more round. Released handles are
 * handed back to the host after the mutex is unlocked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "memory_cache_shim.h"

enum eviction_policy { policy_lru, policy_clock };

typedef struct node {
    /** Next node in the bucket; in a release list, the next node to release. */
    struct node *chain;
    /** The recency list: `previous` is towards the most recently used end. */
    struct node *previous;
    struct node *next;
    uint64_t hash;
    uint64_t cost;
    int64_t stored_seconds;
    void *handle;
    bool referenced;
    size_t key_length;
    char key[];
} node;

struct webimage_memory_cache_instance {
    pthread_mutex_t mutex;
    node **buckets;
    size_t bucket_count;
    node *most_recent;
    node *least_recent;
    uint64_t count;
    uint64_t cost;
    uint64_t max_cost;
    uint64_t max_count;
    uint64_t max_age;
    double entry_cost_limit;
    int policy;
    webimage_value_callbacks callbacks;
};

typedef struct webimage_memory_cache_instance memory_cache;

static int64_t now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec;
}

static bool parse_unsigned(const char *text, uint64_t *value) {
    char *end = NULL;
    if (text[0] < '0' || text[0] > '9') return false;
    errno = 0;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0') return false;
    *value = parsed;
    return true;
}

static webimage_status parse_config(memory_cache *cache, const webimage_config *config, webimage_error *error) {
    cache->max_cost = memory_cache_default_cost_limit();
    cache->policy = policy_lru;
    uint32_t count = config->struct_size >= sizeof(webimage_config) ? config->count : 0;
    for (uint32_t i = 0; i < count; i++) {
        const char *key = config->entries[i].key;
        const char *value = config->entries[i].value;
        if (strcmp(key, "max-cost") == 0 || strcmp(key, "max-count") == 0 || strcmp(key, "max-age") == 0) {
            uint64_t number = 0;
            if (!parse_unsigned(value, &number))
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                      "%s: '%s' is not a whole number (0 means no limit)", key, value);
            if (strcmp(key, "max-cost") == 0) cache->max_cost = number;
            else if (strcmp(key, "max-count") == 0) cache->max_count = number;
            else cache->max_age = number;
        } else if (strcmp(key, "policy") == 0) {
            if (strcmp(value, "lru") == 0) cache->policy = policy_lru;
            else if (strcmp(value, "clock") == 0) cache->policy = policy_clock;
            else
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "policy: '%s' is not lru or clock",
                                      value);
        } else if (strcmp(key, "entry-cost-limit") == 0) {
            char *end = NULL;
            double fraction = strtod(value, &end);
            if (!value[0] || *end != '\0' || !(fraction >= 0.0 && fraction <= 1.0))
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                      "entry-cost-limit: '%s' is not a number from 0 to 1", value);
            cache->entry_cost_limit = fraction;
        } else {
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                  "unknown option '%s' (the memory cache takes max-cost, max-count, max-age, policy, "
                                  "entry-cost-limit)",
                                  key);
        }
    }
    return WEBIMAGE_STATUS_OK;
}

static webimage_status create(const webimage_config *config, const webimage_value_callbacks *callbacks,
                              webimage_memory_cache_instance **out, webimage_error *error) {
    *out = NULL;
    if (callbacks->struct_size < sizeof(webimage_value_callbacks))
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "value callbacks too small");
    memory_cache *cache = calloc(1, sizeof(*cache));
    if (!cache) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    webimage_status status = parse_config(cache, config, error);
    if (status != WEBIMAGE_STATUS_OK) {
        free(cache);
        return status;
    }
    cache->bucket_count = 64;
    cache->buckets = calloc(cache->bucket_count, sizeof(node *));
    if (!cache->buckets) {
        free(cache);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    cache->callbacks = *callbacks;
    pthread_mutex_init(&cache->mutex, NULL);
    *out = cache;
    return WEBIMAGE_STATUS_OK;
}

/* ---------------------------------------------------------------- list and table */
static void unlink_recency(memory_cache *cache, node *entry) {
    if (entry->previous) entry->previous->next = entry->next;
    else cache->most_recent = entry->next;
    if (entry->next) entry->next->previous = entry->previous;
    else cache->least_recent = entry->previous;
    entry->previous = entry->next = NULL;
}

static void push_most_recent(memory_cache *cache, node *entry) {
    entry->previous = NULL;
    entry->next = cache->most_recent;
    if (cache->most_recent) cache->most_recent->previous = entry;
    cache->most_recent = entry;
    if (!cache->least_recent) cache->least_recent = entry;
}

static node **bucket_link(memory_cache *cache, const char *key, size_t key_length, uint64_t hash) {
    node **link = &cache->buckets[hash & (cache->bucket_count - 1)];
    while (*link &&
           !((*link)->hash == hash && (*link)->key_length == key_length && memcmp((*link)->key, key, key_length) == 0))
        link = &(*link)->chain;
    return link;
}

/** Takes `entry` out of the table and the list and puts it on `released`. */
static void detach(memory_cache *cache, node *entry, node **released) {
    node **link = bucket_link(cache, entry->key, entry->key_length, entry->hash);
    *link = entry->chain;
    unlink_recency(cache, entry);
    cache->count--;
    cache->cost -= entry->cost;
    entry->chain = *released;
    *released = entry;
}

/** Evicts the next victim of the policy. */
static void evict_one(memory_cache *cache, node **released) {
    if (cache->policy == policy_clock) {
        for (uint64_t turns = 0; turns <= cache->count && cache->least_recent->referenced; turns++) {
            node *second_chance = cache->least_recent;
            second_chance->referenced = false;
            unlink_recency(cache, second_chance);
            push_most_recent(cache, second_chance);
        }
    }
    detach(cache, cache->least_recent, released);
}

static void evict_to(memory_cache *cache, uint64_t cost, uint64_t count, node **released) {
    while (cache->least_recent && (cache->cost > cost || cache->count > count)) evict_one(cache, released);
}

static void enforce_limits(memory_cache *cache, node **released) {
    evict_to(cache, cache->max_cost ? cache->max_cost : UINT64_MAX, cache->max_count ? cache->max_count : UINT64_MAX,
             released);
}

static void release_all(memory_cache *cache, node *released) {
    while (released) {
        node *next = released->chain;
        cache->callbacks.release(cache->callbacks.context, released->handle);
        free(released);
        released = next;
    }
}

static void grow(memory_cache *cache) {
    size_t count = cache->bucket_count * 2;
    node **buckets = calloc(count, sizeof(node *));
    if (!buckets) return;
    for (size_t i = 0; i < cache->bucket_count; i++) {
        node *entry = cache->buckets[i];
        while (entry) {
            node *next = entry->chain;
            entry->chain = buckets[entry->hash & (count - 1)];
            buckets[entry->hash & (count - 1)] = entry;
            entry = next;
        }
    }
    free(cache->buckets);
    cache->buckets = buckets;
    cache->bucket_count = count;
}

/* ---------------------------------------------------------------- functions */
static webimage_status set(webimage_memory_cache_instance *cache, const char *key, size_t key_length, void *handle,
                           uint64_t cost, webimage_error *error) {
    if (cache->entry_cost_limit > 0 && cache->max_cost > 0 &&
        (double)cost > (double)cache->max_cost * cache->entry_cost_limit)
        return webimage_failf(error, WEBIMAGE_STATUS_TOO_LARGE,
                              "an entry of %llu bytes is more than %g of the cost limit of %llu bytes",
                              (unsigned long long)cost, cache->entry_cost_limit, (unsigned long long)cache->max_cost);
    uint64_t hash = XXH3_64bits(key, key_length);
    node *created = malloc(sizeof(node) + key_length);
    if (!created) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    node *released = NULL;
    int64_t stored = cache->max_age ? now_seconds() : 0;
    pthread_mutex_lock(&cache->mutex);
    node **link = bucket_link(cache, key, key_length, hash);
    if (*link) detach(cache, *link, &released);
    *created = (node){.hash = hash, .cost = cost, .stored_seconds = stored, .handle = handle, .key_length = key_length};
    memcpy(created->key, key, key_length);
    link = bucket_link(cache, key, key_length, hash);
    *link = created;
    push_most_recent(cache, created);
    cache->count++;
    cache->cost += cost;
    enforce_limits(cache, &released);
    if (cache->count > cache->bucket_count) grow(cache);
    pthread_mutex_unlock(&cache->mutex);
    release_all(cache, released);
    return WEBIMAGE_STATUS_OK;
}

static void *get(webimage_memory_cache_instance *cache, const char *key, size_t key_length) {
    uint64_t hash = XXH3_64bits(key, key_length);
    node *released = NULL;
    void *handle = NULL;
    pthread_mutex_lock(&cache->mutex);
    node *entry = *bucket_link(cache, key, key_length, hash);
    if (entry && cache->max_age && now_seconds() - entry->stored_seconds > (int64_t)cache->max_age) {
        detach(cache, entry, &released);
        entry = NULL;
    }
    if (entry) {
        if (cache->policy == policy_clock) {
            entry->referenced = true;
        } else if (cache->most_recent != entry) {
            unlink_recency(cache, entry);
            push_most_recent(cache, entry);
        }
        handle = entry->handle;
        cache->callbacks.retain(cache->callbacks.context, handle);
    }
    pthread_mutex_unlock(&cache->mutex);
    release_all(cache, released);
    return handle;
}

static bool remove_key(webimage_memory_cache_instance *cache, const char *key, size_t key_length) {
    uint64_t hash = XXH3_64bits(key, key_length);
    node *released = NULL;
    pthread_mutex_lock(&cache->mutex);
    node *entry = *bucket_link(cache, key, key_length, hash);
    if (entry) detach(cache, entry, &released);
    pthread_mutex_unlock(&cache->mutex);
    release_all(cache, released);
    return entry != NULL;
}

static void trim_to_cost(webimage_memory_cache_instance *cache, uint64_t cost) {
    node *released = NULL;
    pthread_mutex_lock(&cache->mutex);
    evict_to(cache, cost, UINT64_MAX, &released);
    pthread_mutex_unlock(&cache->mutex);
    release_all(cache, released);
}

static void trim_to_count(webimage_memory_cache_instance *cache, uint64_t count) {
    node *released = NULL;
    pthread_mutex_lock(&cache->mutex);
    evict_to(cache, UINT64_MAX, count, &released);
    pthread_mutex_unlock(&cache->mutex);
    release_all(cache, released);
}

static void remove_all(webimage_memory_cache_instance *cache) { trim_to_count(cache, 0); }

static void totals(webimage_memory_cache_instance *cache, webimage_cache_totals *totals) {
    pthread_mutex_lock(&cache->mutex);
    webimage_cache_totals filled = {
        .struct_size = sizeof(webimage_cache_totals),
        .count = cache->count,
        .bytes = cache->cost,
        .byte_limit = cache->max_cost,
        .count_limit = cache->max_count,
        .age_limit_seconds = cache->max_age,
    };
    pthread_mutex_unlock(&cache->mutex);
    uint32_t size = totals->struct_size < sizeof(filled) ? totals->struct_size : (uint32_t)sizeof(filled);
    filled.struct_size = size;
    memcpy(totals, &filled, size);
}

static void destroy(webimage_memory_cache_instance *cache) {
    if (!cache) return;
    remove_all(cache);
    pthread_mutex_destroy(&cache->mutex);
    free(cache->buckets);
    free(cache);
}

static const webimage_memory_cache table = {
    .struct_size = sizeof(webimage_memory_cache),
    .flags = WEBIMAGE_CACHE_THREAD_SAFE,
    .create = create,
    .destroy = destroy,
    .set = set,
    .get = get,
    .remove = remove_key,
    .remove_all = remove_all,
    .trim_to_cost = trim_to_cost,
    .trim_to_count = trim_to_count,
    .totals = totals,
};

const webimage_memory_cache *memory_cache_table(void) { return &table; }
