/* Internal declarations shared by the redis cache's C files. */
#ifndef WEBIMAGE_REDIS_CACHE_INTERNAL_H
#define WEBIMAGE_REDIS_CACHE_INTERNAL_H

#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "redis_cache_shim.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/** The parsed configuration. */
typedef struct redis_cache_config {
    char *host;
    int port;
    int database;
    char *namespace_name;
    uint32_t timeout_ms;
    uint64_t max_value_size;
    uint64_t max_age;
} redis_cache_config;

struct webimage_disk_cache_instance {
    redis_cache_config config;
    /** Serialises the threads on the one connection. */
    pthread_mutex_t mutex;
    /** NULL while disconnected. */
    redisContext *context;
    /** While disconnected: no attempt before this time (monotonic ms), doubling up to the cap. */
    int64_t retry_at_ms;
    int64_t backoff_ms;
    /** True from a fault until the next successful command, so an outage is logged once. */
    bool faulted;
    /** While faulted: `IO_ERROR` or `TIMED_OUT`, and what failed, for every call until it answers. */
    webimage_status fault_status;
    char fault_reason[256];
    /** The value of the leases this instance takes: its process and a random number, unique to it. */
    char lease_token[48];
};

typedef struct webimage_disk_cache_instance redis_cache;

extern const webimage_host *_Atomic redis_cache_host;

/* redis_cache_config.c */
webimage_status redis_cache_config_parse(const webimage_config *config, redis_cache_config *parsed,
                                         webimage_error *error);
void redis_cache_config_free(redis_cache_config *config);

/* redis_cache_connection.c: call with the mutex held. */
/** The connection, connecting when due; NULL while Redis is unreachable (a miss for the caller). */
redisContext *redis_cache_connection(redis_cache *cache);
/** Runs a command; NULL (and the connection dropped, the fault logged once) on a connection error or timeout. */
redisReply *redis_cache_command(redis_cache *cache, int count, const char **arguments, const size_t *lengths);
/**
 * Records a fault (dropping the connection) and logs it when it starts an outage: `TIMED_OUT`
 * when `code` (the errno of a call that failed with REDIS_ERR_IO; 0 for other errors) says the
 * timeout passed, else `IO_ERROR`.
 */
void redis_cache_fault(redis_cache *cache, int code, const char *what);
/** Fails `error` with the fault's status: "redis cache HOST:PORT does not answer: <what failed>". */
webimage_status redis_cache_unanswered(redis_cache *cache, webimage_error *error);

/* redis_cache_frame.c */
enum { REDIS_CACHE_FRAME_HEADER_SIZE = 32 };

/** The parts of a sound value, pointing into it. */
typedef struct redis_cache_frame {
    const uint8_t *extended;
    size_t extended_size;
    const uint8_t *bytes;
    size_t size;
} redis_cache_frame;

/** What a read found wrong with a value: nothing (`reason` NULL), or why it is not served. */
typedef struct redis_cache_frame_check {
    const char *reason;
    /** Not 0: the value is of this newer format version, a newer release's entry, left in place. */
    unsigned newer_version;
} redis_cache_frame_check;

/** Writes the frame of `bytes` and `extended` into `frame` (REDIS_CACHE_FRAME_HEADER_SIZE + both sizes). */
void redis_cache_frame_write(char *frame, const uint8_t *bytes, size_t size, const uint8_t *extended,
                             size_t extended_size);
/** Checks `value` (header fields, lengths, checksum) and, when sound, points `frame` at its parts. */
redis_cache_frame_check redis_cache_frame_read(const char *value, size_t length, redis_cache_frame *frame);

#pragma GCC visibility pop

#endif
