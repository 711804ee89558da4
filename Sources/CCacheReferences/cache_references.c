/* The plain C baselines of the cache benchmark. */
#define _GNU_SOURCE
#include "cache_references.h"

#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cache_reference_write(const char *directory, const char *name, const uint8_t *bytes, size_t size) {
    char temporary[4096], final_path[4096];
    snprintf(temporary, sizeof(temporary), "%s/.tmp-reference", directory);
    snprintf(final_path, sizeof(final_path), "%s/%s", directory, name);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t written = write(fd, bytes + done, size - done);
        if (written <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)written;
    }
    if (close(fd) != 0) return -1;
    return rename(temporary, final_path);
}

int cache_reference_read(const char *path, uint8_t **bytes, size_t *size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat status;
    if (fstat(fd, &status) != 0) {
        close(fd);
        return -1;
    }
    *size = (size_t)status.st_size;
    *bytes = malloc(*size ? *size : 1);
    ssize_t got = *bytes ? read(fd, *bytes, *size) : -1;
    close(fd);
    return got == (ssize_t)*size ? 0 : -1;
}

void *cache_reference_redis_connect(const char *host, int port) {
    redisContext *context = redisConnect(host, port);
    if (!context || context->err) {
        if (context) redisFree(context);
        return NULL;
    }
    return context;
}

void cache_reference_redis_free(void *connection) { redisFree(connection); }

int cache_reference_redis_set(void *connection, const char *key, const uint8_t *bytes, size_t size) {
    redisReply *reply = redisCommand(connection, "SET %s %b", key, bytes, size);
    int status = reply && reply->type == REDIS_REPLY_STATUS ? 0 : -1;
    if (reply) freeReplyObject(reply);
    return status;
}

long cache_reference_redis_get(void *connection, const char *key) {
    redisReply *reply = redisCommand(connection, "GET %s", key);
    long length = reply && reply->type == REDIS_REPLY_STRING ? (long)reply->len : -1;
    if (reply) freeReplyObject(reply);
    return length;
}
