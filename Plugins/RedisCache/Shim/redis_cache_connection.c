/*
 * The connection: connect and command timeouts, one logged fault per outage, reconnection
 * with a backoff from 100 ms doubling to 5 s. While Redis is unreachable no call waits: every
 * call fails at once with the fault's status (`IO_ERROR`, or `TIMED_OUT` after a timeout)
 * until the next attempt is due.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "redis_cache_internal.h"

enum { first_backoff_ms = 100, longest_backoff_ms = 5000 };

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void log_line(int32_t level, const char *message) {
    redis_cache_host->log(redis_cache_host->context, level, message);
}

/**
 * True when `code`, the errno of a call that failed with REDIS_ERR_IO, means the timeout passed:
 * hiredis 0.14 reports a command's timeout as EAGAIN and a connect's as ETIMEDOUT.
 */
static bool is_timeout(int code) {
    return code == EAGAIN || code == EWOULDBLOCK || code == ETIMEDOUT || code == EINPROGRESS;
}

void redis_cache_fault(redis_cache *cache, int code, const char *what) {
    if (!cache->faulted) {
        char message[512];
        snprintf(message, sizeof(message), "redis cache %s:%d: %s; its reads and writes fail until it answers again",
                 cache->config.host, cache->config.port, what);
        log_line(WEBIMAGE_LOG_WARNING, message);
    }
    cache->faulted = true;
    cache->fault_status = is_timeout(code) ? WEBIMAGE_STATUS_TIMED_OUT : WEBIMAGE_STATUS_IO_ERROR;
    snprintf(cache->fault_reason, sizeof(cache->fault_reason), "%s", what);
    if (cache->context) redisFree(cache->context);
    cache->context = NULL;
    cache->backoff_ms = cache->backoff_ms ? cache->backoff_ms * 2 : first_backoff_ms;
    if (cache->backoff_ms > longest_backoff_ms) cache->backoff_ms = longest_backoff_ms;
    cache->retry_at_ms = now_ms() + cache->backoff_ms;
}

redisContext *redis_cache_connection(redis_cache *cache) {
    if (cache->context) return cache->context;
    if (now_ms() < cache->retry_at_ms) return NULL;
    struct timeval timeout = {cache->config.timeout_ms / 1000, (cache->config.timeout_ms % 1000) * 1000};
    redisContext *context = redisConnectWithTimeout(cache->config.host, cache->config.port, timeout);
    int code = context && context->err == REDIS_ERR_IO ? errno : 0;
    if (!context || context->err) {
        char what[300];
        if (is_timeout(code)) snprintf(what, sizeof(what), "cannot connect within %u ms", cache->config.timeout_ms);
        else snprintf(what, sizeof(what), "cannot connect: %s", context ? context->errstr : "out of memory");
        if (context) redisFree(context);
        redis_cache_fault(cache, code, what);
        return NULL;
    }
    redisSetTimeout(context, timeout);
    cache->context = context;
    if (cache->config.database != 0) {
        redisReply *reply = redisCommand(context, "SELECT %d", cache->config.database);
        bool selected = reply && reply->type == REDIS_REPLY_STATUS;
        if (reply) freeReplyObject(reply);
        if (!selected) {
            redis_cache_fault(cache, 0, "SELECT of the database failed");
            return NULL;
        }
    }
    return context;
}

redisReply *redis_cache_command(redis_cache *cache, int count, const char **arguments, const size_t *lengths) {
    redisContext *context = redis_cache_connection(cache);
    if (!context) return NULL;
    redisReply *reply = redisCommandArgv(context, count, arguments, lengths);
    int code = context->err == REDIS_ERR_IO ? errno : 0;
    if (!reply || context->err) {
        char what[300];
        if (is_timeout(code))
            snprintf(what, sizeof(what), "%s got no answer within %u ms", arguments[0], cache->config.timeout_ms);
        else
            snprintf(what, sizeof(what), "%s failed: %s", arguments[0],
                     context->errstr[0] ? context->errstr : "no reply");
        if (reply) freeReplyObject(reply);
        redis_cache_fault(cache, code, what);
        return NULL;
    }
    if (cache->faulted) {
        char message[300];
        snprintf(message, sizeof(message), "redis cache %s:%d: answering again", cache->config.host,
                 cache->config.port);
        log_line(WEBIMAGE_LOG_INFO, message);
    }
    cache->faulted = false;
    cache->backoff_ms = 0;
    return reply;
}

webimage_status redis_cache_unanswered(redis_cache *cache, webimage_error *error) {
    return webimage_failf(error, cache->fault_status ? cache->fault_status : WEBIMAGE_STATUS_IO_ERROR,
                          "redis cache %s:%d does not answer: %s", cache->config.host, cache->config.port,
                          cache->fault_reason[0] ? cache->fault_reason : "no connection");
}
